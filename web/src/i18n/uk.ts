import { en, type Messages } from "./en";

export const uk: Messages = en;
