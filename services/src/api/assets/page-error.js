// The service's error page for people (services/src/api/page_error.rs). The address it
// answered may hold a credential, in its fragment (`#share=…`, `#token=…`) or wrongly in
// its query: both leave the address bar at once. The fragment is kept in memory for the
// link that opens the page again, so a share link whose address was only damaged after
// its key still opens (the replay page then takes the key out of the address itself).
(function () {
  'use strict';
  var fragment = location.hash;
  try {
    history.replaceState(null, '', location.pathname);
  } catch (e) {
    /* the page still says what happened */
  }
  var links = document.querySelectorAll('a.again');
  for (var i = 0; i < links.length; i++) {
    // Only the link back to this same page (`?`) carries the fragment.
    if (links[i].getAttribute('href') !== '?') continue;
    links[i].addEventListener('click', function (e) {
      if (!fragment || fragment === '#') return;
      e.preventDefault();
      history.replaceState(null, '', location.pathname + fragment);
      location.reload();
    });
  }
})();
