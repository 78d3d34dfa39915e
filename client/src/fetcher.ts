import { CLIENT_ERROR_CODES, errorFromAnswer, errorFromFailure, type AuthError } from "./errors.js";
import type { HttpMethod } from "./route-spec.js";

/** The fetch the client calls; the global one by default. Node users pass a cookie-carrying wrapper here. */
export type FetchFunction = (url: string, init: RequestInit) => Promise<Response>;

/** Headers sent with every call: fixed, or computed per call (to read a cookie from somewhere, say). */
export type HeadersOption = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type QueryRecord = Record<string, QueryValue>;

/** Every call's outcome: exactly one of `data` and `error` is set. */
export type Result<D> = { data: D; error: null } | { data: null; error: AuthError };

/** Per-call settings, accepted by every generated method, `$fetch` and `$list`. */
export interface CallOptions {
  /** Added to (and overriding) the client's headers for this call. */
  headers?: HeadersInit;
  signal?: AbortSignal;
  /** Do not follow an answer's `{ url, redirect: true }` in the browser, for this call only. */
  disableRedirect?: boolean;
}

export interface Call extends CallOptions {
  method: HttpMethod;
  body?: unknown;
  query?: object | undefined;
}

export interface FetcherSettings {
  /** Origin and base path joined, without a trailing slash ("" for same-origin relative calls). */
  apiBase: string;
  fetch: FetchFunction;
  headers?: HeadersOption;
  disableRedirect: boolean;
  /** Runs after every successful call, before it resolves. */
  onSuccess?(path: string, data: unknown): void;
}

export type Fetcher = (path: string, call: Call) => Promise<Result<unknown>>;

/** Query values as the server reads them: booleans as "true"/"false", arrays as repeated keys, undefined left out. */
export function toSearchParams(query: object | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query as QueryRecord)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

async function resolveHeaders(option: HeadersOption | undefined): Promise<HeadersInit | undefined> {
  return typeof option === "function" ? option() : option;
}

async function buildHeaders(settings: FetcherSettings, call: Call): Promise<Headers> {
  const headers = new Headers(await resolveHeaders(settings.headers));
  if (call.body !== undefined) headers.set("content-type", "application/json");
  for (const [name, value] of new Headers(call.headers)) headers.set(name, value);
  return headers;
}

/** Null for 204 and empty bodies; parsed JSON for JSON; the text itself for anything else. */
async function readAnswer(response: Response): Promise<{ body: unknown } | { unreadable: string }> {
  if (response.status === 204) return { body: null };
  const text = await response.text();
  if (text.trim() === "") return { body: null };
  const type = response.headers.get("content-type") ?? "";
  if (!/[/+]json\b/i.test(type)) return { body: text };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { unreadable: "The server's answer is not valid JSON" };
  }
}

function redirectTarget(data: unknown): string | null {
  if (typeof data !== "object" || data === null) return null;
  const { url, redirect } = data as { url?: unknown; redirect?: unknown };
  return redirect === true && typeof url === "string" && url !== "" ? url : null;
}

/**
 * Sends one call and settles it into a Result; it never throws. Credentials are always included so the
 * browser sends and stores the session cookie, also across origins when the server allows it.
 */
export function createFetcher(settings: FetcherSettings): Fetcher {
  return async (path, call) => {
    let response: Response;
    let answer: Awaited<ReturnType<typeof readAnswer>>;
    try {
      response = await settings.fetch(`${settings.apiBase}${path}${toSearchParams(call.query)}`, {
        method: call.method,
        headers: await buildHeaders(settings, call),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        credentials: "include",
        signal: call.signal,
      });
      answer = await readAnswer(response);
    } catch (failure) {
      return { data: null, error: errorFromFailure(failure) };
    }
    if (!response.ok) {
      const body = "body" in answer ? answer.body : null;
      return { data: null, error: errorFromAnswer(response.status, response.statusText, body, response.headers) };
    }
    if ("unreadable" in answer) {
      const error = { status: response.status, code: CLIENT_ERROR_CODES.UNREADABLE_RESPONSE, message: answer.unreadable };
      return { data: null, error };
    }
    settings.onSuccess?.(path, answer.body);
    followRedirect(answer.body, call.disableRedirect ?? settings.disableRedirect);
    return { data: answer.body, error: null };
  };
}

/** SPEC.md section 2: the browser navigates when an answer carries a url and a redirect flag. */
function followRedirect(data: unknown, disabled: boolean): void {
  if (disabled || typeof window === "undefined") return;
  const url = redirectTarget(data);
  if (url) window.location.href = url;
}
