import { en, type Messages } from "./en";

export const ru: Messages = en;
