import { Choice, type ChoiceProps } from "./choice";

export type RadioProps = ChoiceProps;

/** One choice of a group; put the group in a <fieldset> with a <legend>. */
export function Radio(props: RadioProps) {
  return <Choice type="radio" {...props} />;
}
