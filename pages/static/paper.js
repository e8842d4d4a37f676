// The print button of the printable pages (an inline handler would break the pages' CSP).
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});
