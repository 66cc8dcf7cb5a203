// Fan-out Playground embed helper for a parent page: resizes every <iframe data-fanout> to the
// content height its embed reports with postMessage({type: "fanout:resize", height, title}),
// and titles a frame that has no title with the embed's (what it shows).
// No dependency; only a message from the iframe's own window is believed.
(function () {
  'use strict';
  var MAX = 4000;
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.type !== 'fanout:resize') return;
    var height = Number(data.height);
    if (!isFinite(height) || height <= 0) return;
    var frames = document.querySelectorAll('iframe[data-fanout]');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.min(Math.ceil(height), MAX) + 'px';
        // A frame is named by its title (screen readers list frames by it): the embed's own,
        // saying what it shows, when the page's author gave none.
        // (data-fanout-title marks a title given here, kept up to date as the embed loads.)
        var frame = frames[i];
        if (typeof data.title === 'string' && data.title
            && (!frame.getAttribute('title') || frame.hasAttribute('data-fanout-title'))) {
          frame.setAttribute('title', data.title.slice(0, 200));
          frame.setAttribute('data-fanout-title', '');
        }
        return;
      }
    }
  });
})();
