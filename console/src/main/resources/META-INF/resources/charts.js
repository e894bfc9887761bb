// Draws every [data-chart] element from the data the server put on it ({x, series:[{label, values}]}: TrendSeries,
// PrometheusHistory) with uPlot, bundled as a web jar. A series whose label ends in " failed" is dashed.
(function () {
  if (typeof uPlot === 'undefined') {
    return;
  }
  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
  document.querySelectorAll('[data-chart]').forEach(function (holder) {
    if (!holder.dataset.chart) {
      return;
    }
    var chart = JSON.parse(holder.dataset.chart);
    var paired = chart.series.some(function (s) { return s.label.endsWith(' failed'); });
    var series = [{}];
    var data = [chart.x];
    chart.series.forEach(function (s, i) {
      var colour = palette[(paired ? Math.floor(i / 2) : i) % palette.length];
      series.push({label: s.label, stroke: colour, dash: s.label.endsWith(' failed') ? [6, 4] : null, width: 2});
      data.push(s.values);
    });
    new uPlot({width: Math.min(holder.clientWidth || 900, 1100), height: holder.dataset.unit ? 220 : 320,
      series: series, axes: [{}, {label: holder.dataset.unit || 'notifications'}]}, data, holder);
  });
})();
