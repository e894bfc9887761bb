// Draws every [data-chart] element from the data the server put on it ({x, series:[{label, values}]}: TrendSeries,
// DeliveryTimeline, PrometheusHistory) with uPlot, bundled as a web jar; again for the elements htmx swaps in (the
// task report refreshes itself). Every series has a colour of its own, so that two series of one channel are told
// apart by colour as well as by their line: solid for sent (and single series), dashed for failed, dotted for received.
// A label's last word (sent, received, failed) is shown in the page's language when the element carries it as
// data-sent, data-received or data-failed; the y axis's default name as data-axis, the x series' as data-time.
(function () {
  if (typeof uPlot === 'undefined') {
    return;
  }
  // 16 colours readable on white, neighbours far apart in hue (a channel's sent and failed are neighbours)
  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2',
    '#393b79', '#bcbd22', '#637939', '#ad494a', '#7f7f7f', '#3182bd', '#843c39', '#31a354'];
  var dashes = {failed: [6, 4], received: [2, 3]};
  // time-axis steps in seconds; a chart of buckets (data-step) ticks no finer than its bucket
  var steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 21600, 43200, 86400, 172800,
    604800];

  function draw(holder) {
    if (!holder.dataset.chart || holder.querySelector('.uplot')) {
      return;
    }
    var chart = JSON.parse(holder.dataset.chart);
    var series = [holder.dataset.time ? {label: holder.dataset.time} : {}];
    var data = [chart.x];
    chart.series.forEach(function (s, i) {
      var kind = s.label.substring(s.label.lastIndexOf(' ') + 1);
      var label = holder.dataset[kind] ? s.label.substring(0, s.label.lastIndexOf(' ') + 1) + holder.dataset[kind]
        : s.label;
      series.push({label: label, stroke: palette[i % palette.length], dash: dashes[kind] || null,
        width: 2});
      data.push(s.values);
    });
    new uPlot({width: Math.min(holder.clientWidth || 900, 1100), height: holder.dataset.unit ? 220 : 320,
      series: series, axes: [holder.dataset.step ? {incrs: steps.filter(function (step) {
        return step >= Number(holder.dataset.step);
      })} : {}, {label: holder.dataset.unit || holder.dataset.axis || 'notifications'}],
      // the legend's marker drawn like its line: solid, dashed or dotted
      legend: {markers: {dash: function (u, i) {
        var dash = u.series[i].dash;
        return !dash ? 'solid' : dash[0] > 3 ? 'dashed' : 'dotted';
      }}}}, data, holder);
  }

  function drawAll(root) {
    if (root.matches && root.matches('[data-chart]')) {
      draw(root);
    }
    root.querySelectorAll('[data-chart]').forEach(draw);
  }

  drawAll(document);
  document.addEventListener('htmx:load', function (event) { drawAll(event.detail.elt); });
})();
