import { OAuthBodyError, OAuthNetworkError, OAuthRefusedError, OAuthStatusError } from "./errors.js";

/** Every call to a provider gives up after this long, so a slow provider cannot hold requests open. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** Sent to provider APIs; GitHub and Reddit refuse requests without a User-Agent of the application's own. */
export const USER_AGENT = "Gatehouse (+https://github.com/gatehouse)";

export interface ProviderRequest {
  method?: "GET" | "POST";
  /** Sent as `Authorization: Bearer …` unless the provider wants it elsewhere. */
  accessToken?: string;
  headers?: Record<string, string>;
  /** A form body (POST). */
  form?: Record<string, string>;
  /** A raw body (POST), with its content type in `headers`. */
  body?: string;
}

/**
 * Calls a provider's API and returns its JSON object, with the four distinct failures: unreachable, refused (an
 * OAuth-style error or 401/403), another unexpected status, an unreadable body.
 */
export async function requestJson(
  providerId: string,
  url: string,
  request: ProviderRequest = {},
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT, ...request.headers };
  if (request.accessToken) headers.authorization = `Bearer ${request.accessToken}`;
  let body: string | undefined = request.body;
  if (request.form) {
    body = new URLSearchParams(request.form).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? "GET",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (error) {
    throw new OAuthNetworkError(providerId, `${providerId} unreachable: ${(error as Error).message}`, { cause: error });
  }
  const text = await response.text().catch((error: Error) => {
    throw new OAuthNetworkError(providerId, `${providerId} body lost: ${error.message}`, { cause: error });
  });
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const object = json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  if (!response.ok) {
    const error = object && typeof object.error === "string" ? object.error : null;
    if (error || response.status === 401 || response.status === 403) {
      const description = typeof object?.error_description === "string" ? object.error_description : undefined;
      throw new OAuthRefusedError(providerId, error ?? `http_${response.status}`, description, response.status);
    }
    throw new OAuthStatusError(providerId, response.status);
  }
  if (Array.isArray(json)) return { items: json };
  if (!object) throw new OAuthBodyError(providerId, `${providerId} answered ${url} with a body that is not a JSON object`);
  return object;
}
