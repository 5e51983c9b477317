// Progressive enhancement only: every page works without this file.
document.addEventListener('htmx:configRequest', function (e) {
  var meta = document.body.getAttribute('hx-headers');
  if (!meta) return;
  try { Object.assign(e.detail.headers, JSON.parse(meta)); } catch (_) { /* keep the request as it is */ }
});
document.addEventListener('submit', function (e) {
  var msg = e.target.getAttribute && e.target.getAttribute('data-confirm');
  if (msg && !window.confirm(msg)) e.preventDefault();
});
