// The Print button of printable pages (a file, as the pages' Content-Security-Policy allows no inline script).
document.getElementById("print").addEventListener("click", function () { window.print(); });
