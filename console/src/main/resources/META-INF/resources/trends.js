// Draws the Trends chart from the data the server put on #trend-chart (TrendSeries): uPlot, bundled as a web jar.
(function () {
  var holder = document.getElementById('trend-chart');
  if (!holder || typeof uPlot === 'undefined') {
    return;
  }
  var chart = JSON.parse(holder.dataset.chart);
  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
  var series = [{}];
  var data = [chart.x];
  chart.series.forEach(function (s, i) {
    var failed = s.label.endsWith(' failed');
    series.push({label: s.label, stroke: palette[Math.floor(i / 2) % palette.length], dash: failed ? [6, 4] : null,
      width: 2});
    data.push(s.values);
  });
  new uPlot({width: Math.min(holder.clientWidth || 900, 1100), height: 320, series: series,
    axes: [{}, {label: 'notifications'}]}, data, holder);
})();
