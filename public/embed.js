// Fan-out Playground embed helper for a parent page: resizes every <iframe data-fanout> to the
// content height its embed reports with postMessage({type: "fanout:resize", height}).
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
        return;
      }
    }
  });
})();
