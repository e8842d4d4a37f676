import { t } from "./words.js";
// Calls to the service with the device's key, each answer turned into what the page does next:
//   ok        2xx: done
//   refused   the service said no (400, 404, 409, 413, 422): a person must look, trying again changes nothing
//   unpaired  401 or 403: the key is unknown, revoked, expired or not allowed: pair again
//   later     no answer, 5xx (503, 507...), 408, 429: try again later (Retry-After honoured)

const TIMEOUT_MS = 20000;

export async function call(key, method, path, { json, raw, type, timeoutMs = TIMEOUT_MS } = {}) {
  const headers = { "TS-Apikey": key };
  let body;
  if (raw !== undefined) {
    body = raw;
    headers["Content-Type"] = type;
  } else if (json !== undefined) {
    body = typeof json === "string" ? json : JSON.stringify(json);
    headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, { method, headers, body, cache: "no-store", credentials: "omit",
                                   signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    return { kind: "later", status: 0, message: t("The service did not answer."), retryAfter: 0 };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null; // an answer cut off, or not JSON (a proxy's error page)
  }
  const status = response.status;
  if (response.ok && data !== null) return { kind: "ok", status, data };
  const message = data?.error?.message || t("The service answered %(status)s.", { status });
  if (response.ok || status >= 500 || status === 408 || status === 429) {
    return { kind: "later", status, message, retryAfter: Number(response.headers.get("Retry-After")) || 0 };
  }
  if (status === 401 || status === 403) return { kind: "unpaired", status, message };
  return { kind: "refused", status, message, fields: data?.error?.fields || null };
}
