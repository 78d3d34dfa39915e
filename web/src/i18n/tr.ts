import { en, type Messages } from "./en";

export const tr: Messages = en;
