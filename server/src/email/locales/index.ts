import type { Language } from "../language.js";
import { de } from "./de.js";
import { en } from "./en.js";
import { es } from "./es.js";
import { fr } from "./fr.js";
import { pl } from "./pl.js";
import { ru } from "./ru.js";
import { tr } from "./tr.js";
import type { MailCatalog } from "./types.js";
import { uk } from "./uk.js";

export type { MailCatalog, MailMessage } from "./types.js";

export const CATALOGS: Readonly<Record<Language, MailCatalog>> = { ru, uk, en, es, de, pl, fr, tr };
