// The device's own language (DESIGN 29): chosen on the home screen, kept in a cookie of /scan that
// only the scanner's pages read (scanner/views.py draws them in it). None: the depot's language,
// else the browser's. The page is drawn again in the new one.

export function chooseLanguage(event) {
  const chosen = event.target.value;
  document.cookie = chosen ? `scan_language=${chosen}; path=/scan; max-age=31536000; samesite=strict`
    : "scan_language=; path=/scan; max-age=0; samesite=strict";
  location.reload();
}
