import { en, type Messages } from "./en";

export const pl: Messages = en;
