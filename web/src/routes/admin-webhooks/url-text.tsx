import { Fragment } from "react";

/**
 * A URL that a narrow column wraps after its slashes, dots and query separators (a break opportunity after each),
 * rather than in the middle of a word; a part longer than the line still breaks anywhere (the `url` class).
 */
export function UrlText({ url }: { url: string }) {
  const parts = url.split(/(?<=[/.?&=])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
