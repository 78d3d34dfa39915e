import type { AuthError } from "@gatehouse/client";
import { Fragment, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useQuery, type Query } from "../lib/data";
import { errorMessage } from "../lib/auth-errors";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { Spinner } from "./ui/spinner";
import styles from "./cursor-pages.module.css";

/** One page of a list paged by cursor, newest first (the audit log's routes). */
export interface CursorPage<E> {
  events: E[];
  /** The next (older) page's cursor; null on the last page. */
  nextCursor: string | null;
}

/** How the last page shown stands: the "Load more" row under the list follows it. */
interface Tail {
  state: "loading" | "failed" | "ready";
  error: AuthError | null;
  /** Another page follows it. */
  more: boolean;
  reload(): Promise<void>;
}

interface ChainProps<E> {
  page(cursor: string | undefined): Query<CursorPage<E>>;
  cursor?: string | undefined;
  /** Pages to draw from this one on (this one included). */
  count: number;
  render(events: E[]): ReactNode;
  onTail(tail: Tail): void;
}

/**
 * One page and, while more are asked for, the pages after it, each from the cursor its predecessor answers *now*:
 * when the newest page is read again (a change adds an event at the top), the pages after it follow its new end,
 * so no event falls between two pages or shows twice. Each page is a cached query, so reading again the first does
 * not refetch the others unless their cursor moved.
 */
function PageChain<E>({ page, cursor, count, render, onTail }: ChainProps<E>) {
  const load = useQuery(page(cursor));
  const next = load.data?.nextCursor ?? null;
  const tail = count <= 1 || (load.state === "ready" && next === null) || load.state !== "ready";
  const { state, error, reload } = load;
  useEffect(() => {
    // reload is made anew on each render: the tail is told again only when what it shows changes.
    if (tail) onTail({ state, error, more: next !== null, reload });
  }, [tail, state, error, next, onTail]);
  return (
    <>
      {load.data ? render(load.data.events) : null}
      {!tail && next !== null ? <PageChain page={page} cursor={next} count={count - 1} render={render} onTail={onTail} /> : null}
    </>
  );
}

export interface CursorPages<E> {
  /** The first (newest) page's query, for the list's own loading, failed and empty states. */
  first: ReturnType<typeof useQuery<CursorPage<E>>>;
  /** The list's items, page after page (<li>s or <tr>s, as `render` draws them). */
  items: ReactNode;
  /** The row under the list: "Load more", a spinner while it loads, or why it failed. */
  footer: ReactNode;
}

/**
 * A list read page by page with "Load more" (the audit log, an organization's activity, the security page's): the
 * first page shows at once, each press adds the next (older) one under it. `page` gives the query of the page after
 * a cursor (undefined: the newest); `reset` is what the filters are now, and a change goes back to one page.
 */
export function useCursorPages<E>(page: (cursor: string | undefined) => Query<CursorPage<E>>, reset: string, render: (events: E[]) => ReactNode): CursorPages<E> {
  const { t } = useTranslation();
  const first = useQuery(page(undefined));
  const [shown, setShown] = useState({ reset, count: 1 });
  const count = shown.reset === reset ? shown.count : 1;
  const [tail, setTail] = useState<Tail | null>(null);
  const endRef = useRef<HTMLParagraphElement>(null);
  const pressed = useRef(false);

  // The button goes once the last page is in: focus moves to the words that say so, not to the page's top.
  useEffect(() => {
    if (pressed.current && tail?.state === "ready" && !tail.more) {
      pressed.current = false;
      endRef.current?.focus();
    }
  }, [tail]);

  const items = <PageChain key={reset} page={page} count={count} render={(events) => <Fragment>{render(events)}</Fragment>} onTail={setTail} />;

  let footer: ReactNode = null;
  if (first.state === "ready" && first.data.events.length > 0 && tail) {
    if (tail.state === "failed" && count > 1) {
      footer = (
        <div className={`${styles.footer} ${styles.failed}`}>
          <Alert variant="error">
            <p>{tail.error ? errorMessage(t, tail.error) : t("common.genericError")}</p>
            <Button variant="secondary" size="sm" className={styles.retry} onClick={() => void tail.reload()}>
              {t("common.tryAgain")}
            </Button>
          </Alert>
        </div>
      );
    } else if (tail.state === "loading" && count > 1) {
      footer = (
        <div className={`${styles.footer} ${styles.loading}`}>
          <Spinner size="sm" />
          <span role="status">{t("activity.loadingMore")}</span>
        </div>
      );
    } else if (tail.state === "ready" && tail.more) {
      footer = (
        <div className={styles.footer}>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              pressed.current = true;
              setShown({ reset, count: count + 1 });
            }}
          >
            {t("activity.loadMore")}
          </Button>
        </div>
      );
    } else if (tail.state === "ready" && count > 1) {
      footer = (
        <div className={styles.footer}>
          <p ref={endRef} tabIndex={-1} className={styles.end}>
            {t("activity.end")}
          </p>
        </div>
      );
    }
  }
  return { first, items, footer };
}
