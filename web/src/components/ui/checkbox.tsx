import { Choice, type ChoiceProps } from "./choice";

export type CheckboxProps = ChoiceProps;

export function Checkbox(props: CheckboxProps) {
  return <Choice type="checkbox" {...props} />;
}
