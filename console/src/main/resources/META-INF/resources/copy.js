// The Copy button of a value shown once (the Apps page's new admin token): a static file, not an inline handler, so
// the Content-Security-Policy needs no 'unsafe-inline'. Without a clipboard API (plain http to another host) the
// button stays hidden and the value can still be selected by hand.
(function () {
  if (!navigator.clipboard) {
    return;
  }
  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var result = document.getElementById('copy-result');
    button.hidden = false;
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(document.getElementById(button.dataset.copy).textContent).then(function () {
        result.textContent = 'Copied.';
      }, function () {
        result.textContent = 'Not copied: select the token and copy it by hand.';
      });
    });
  });
})();
