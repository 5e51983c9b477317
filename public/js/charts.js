// Draws the charts of views/macros/chart.njk with Apache ECharts (docs/ui.md, "Charts").
// Progressive enhancement only: without this file, or when ECharts cannot load, each chart's
// table is the content. ECharts (1 MB) is fetched only on a page that has a chart.
(function () {
  'use strict';
  var ECHARTS_SRC = '/static/echarts/echarts.min.js';
  var SELECTOR = 'figure[data-chart]';
  // Tabler's palette in the order series take it when they name no tone.
  var PALETTE = ['blue', 'orange', 'green', 'purple', 'cyan', 'red', 'yellow', 'teal', 'pink', 'indigo', 'lime', 'azure'];
  // Tabler 1.x colours, for a browser that cannot resolve the kit's CSS variables.
  var FALLBACK = {
    blue: '#066fd1', azure: '#4299e1', indigo: '#4263eb', purple: '#ae3ec9', pink: '#d6336c', red: '#d63939', orange: '#f76707',
    yellow: '#f59f00', lime: '#74b816', green: '#2fb344', teal: '#0ca678', cyan: '#17a2b8', secondary: '#6c7a91', muted: '#6c7a91',
  };
  // The text colours of public/app.css, which pass WCAG AA on white.
  var TEXT = '#1d273b';
  var TEXT_SOFT = '#5b6474';
  var KIND_NAMES = {
    bar: 'Grafico a barre', 'stacked-bar': 'Grafico a barre sovrapposte', line: 'Grafico a linee', pie: 'Grafico ad anello', heatmap: 'Mappa di calore',
    waterfall: 'Grafico a cascata',
  };

  var numberFormat;
  try { numberFormat = new Intl.NumberFormat('it-IT', { useGrouping: 'always' }); } catch (_) { numberFormat = new Intl.NumberFormat('it-IT'); }
  var fmt = function (v) { return v === null || v === undefined || v === '' ? '' : numberFormat.format(Number(v)); };

  var instances = [];
  var waiting = null;
  var colourCache = {};

  /** Loads ECharts once, then runs cb; on failure the tables stay as they are. */
  function withEcharts(cb) {
    if (window.echarts) { cb(); return; }
    if (waiting) { waiting.push(cb); return; }
    waiting = [cb];
    var s = document.createElement('script');
    s.src = ECHARTS_SRC;
    s.onload = function () { var q = waiting; waiting = null; q.forEach(function (f) { f(); }); };
    s.onerror = function () { waiting = null; };
    document.head.appendChild(s);
  }

  /**
   * A Tabler colour as rgb(): the kit declares them with oklch(), var() and light-dark(), which
   * ECharts' colour code does not read; the browser resolves the variable on an element, paints
   * one pixel with the result and reports it in sRGB.
   */
  function colour(tone) {
    var name = tone || 'blue';
    if (colourCache[name]) return colourCache[name];
    var value = FALLBACK[name] || FALLBACK.blue;
    var probe = document.createElement('span');
    try {
      probe.style.color = 'var(--tblr-' + name + ')';
      document.body.appendChild(probe);
      var css = getComputedStyle(probe).color;
      var c = document.createElement('canvas');
      c.width = 1; c.height = 1;
      var g = c.getContext('2d');
      var sentinel = 'rgb(1, 2, 3)';
      g.fillStyle = sentinel;
      g.fillStyle = css;
      // A value the canvas could not read leaves the sentinel: keep the fallback.
      if (css && g.fillStyle !== '#010203') {
        g.fillRect(0, 0, 1, 1);
        var p = g.getImageData(0, 0, 1, 1).data;
        value = 'rgb(' + p[0] + ',' + p[1] + ',' + p[2] + ')';
      }
    } catch (_) { /* keep the fallback */ }
    if (probe.parentNode) probe.parentNode.removeChild(probe);
    colourCache[name] = value;
    return value;
  }

  /** The chart in words, in Italian and with Italian numbers: the accessible name of the drawing. */
  function describe(spec) {
    var head = (KIND_NAMES[spec.kind] || 'Grafico') + ': ' + spec.title + '. ';
    var cats = spec.categories;
    if (spec.kind === 'heatmap') {
      var hits = ((spec.series[0] || {}).data || []).filter(function (p) { return p[2]; })
        .map(function (p) { return spec.yCategories[p[1]] + ', ' + cats[p[0]] + ': ' + fmt(p[2]); });
      return head + (hits.length ? hits.join('; ') + '.' : 'Nessun valore.');
    }
    var multi = spec.series.length > 1;
    return head + spec.series.map(function (s) {
      return (multi ? s.name + ': ' : '') + cats.map(function (c, i) { return c + ' ' + fmt(s.data[i] || 0); }).join(', ');
    }).join('; ') + '.';
  }

  function categoryAxis(data) {
    return {
      type: 'category', data: data, axisLabel: { color: TEXT_SOFT, hideOverlap: true }, axisTick: { alignWithLabel: true },
      axisLine: { lineStyle: { color: '#c9d0dc' } },
    };
  }

  function valueAxis(unit) {
    return {
      type: 'value', name: unit || '', nameTextStyle: { color: TEXT_SOFT, align: 'left' }, minInterval: 1, // the name starts at the axis, inside the card
      axisLabel: { color: TEXT_SOFT, formatter: fmt }, splitLine: { lineStyle: { color: '#e6e9ef' } },
    };
  }

  function options(spec) {
    var reduced = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    var series = spec.series || [];
    var base = {
      animation: !reduced,
      aria: { enabled: true, label: { description: describe(spec) } },
      textStyle: { fontFamily: getComputedStyle(document.body).fontFamily, color: TEXT },
      tooltip: { trigger: spec.kind === 'pie' || spec.kind === 'heatmap' ? 'item' : 'axis', valueFormatter: fmt, confine: true },
      color: PALETTE.map(colour),
    };
    if (spec.kind === 'pie') {
      var s0 = series[0] || { name: '', data: [] };
      var slices = spec.categories.map(function (c, i) {
        var item = { name: c, value: s0.data[i] || 0 };
        if (spec.tones[i]) item.itemStyle = { color: colour(spec.tones[i]) };
        return item;
      }).filter(function (x) { return x.value > 0; }); // an empty slice only crowds the labels; the table keeps the 0
      base.legend = { bottom: 0, textStyle: { color: TEXT } };
      base.series = [{
        type: 'pie', name: s0.name, radius: ['42%', '68%'], center: ['50%', '45%'], data: slices,
        label: { color: TEXT, formatter: function (p) { return p.name + ': ' + fmt(p.value); } },
      }];
      return base;
    }
    if (spec.kind === 'heatmap') {
      var given = (series[0] || { data: [] }).data;
      // Every cell drawn, 0 where nothing was counted, as in the table.
      var cells = [];
      spec.categories.forEach(function (_, x) {
        spec.yCategories.forEach(function (__, y) {
          var hit = given.filter(function (p) { return p[0] === x && p[1] === y; })[0];
          cells.push([x, y, hit ? Number(hit[2]) || 0 : 0]);
        });
      });
      var max = cells.reduce(function (m, p) { return Math.max(m, p[2]); }, 0);
      base.grid = { top: 8, left: 8, right: 16, bottom: 48, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' };
      base.xAxis = categoryAxis(spec.categories);
      base.yAxis = categoryAxis(spec.yCategories);
      base.yAxis.inverse = true; // the first row on top, as in the table
      base.visualMap = {
        min: 0, max: Math.max(max, 1), orient: 'horizontal', left: 'center', bottom: 0, itemHeight: 160, text: [fmt(max), '0'],
        inRange: { color: ['#f1f5fb', colour((series[0] || {}).tone || 'blue')] }, textStyle: { color: TEXT_SOFT }, formatter: fmt,
      };
      base.series = [{
        type: 'heatmap', name: (series[0] || {}).name || '', data: cells, itemStyle: { borderColor: '#fff', borderWidth: 2 },
        label: { show: true, formatter: function (p) { return fmt(p.value[2]); } }, // ECharts picks a label colour that reads on the cell
      }];
      return base;
    }
    if (spec.kind === 'waterfall') return waterfall(spec, base);
    var stacked = spec.kind === 'stacked-bar';
    var legend = series.length > 1;
    base.grid = { top: spec.unit && !spec.horizontal ? 32 : 16, left: 8, right: 24, bottom: legend ? 40 : 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' };
    if (legend) base.legend = { bottom: 0, textStyle: { color: TEXT } };
    var cat = categoryAxis(spec.categories);
    // Across a horizontal chart the unit would crowd the last label; the bars carry their values.
    var val = valueAxis(spec.horizontal ? '' : spec.unit);
    if (spec.horizontal) { cat.inverse = true; base.xAxis = val; base.yAxis = cat; } else { base.xAxis = cat; base.yAxis = val; }
    base.series = series.map(function (s, si) {
      var out = { type: spec.kind === 'line' ? 'line' : 'bar', name: s.name, data: s.data.slice(), emphasis: { focus: 'series' } };
      if (s.tone) out.itemStyle = { color: colour(s.tone) };
      if (out.type === 'line') { out.symbolSize = 6; out.lineStyle = { width: 2 }; if (s.tone) out.lineStyle.color = colour(s.tone); }
      else { out.barMaxWidth = 40; if (stacked) out.stack = 'totale'; }
      // One series with a tone per category: each bar in its category's colour (states keep their badge colours).
      if (series.length === 1 && spec.tones.length && out.type === 'bar') {
        out.data = s.data.map(function (v, i) { return spec.tones[i] ? { value: v, itemStyle: { color: colour(spec.tones[i]) } } : v; });
      }
      // Class bands behind a line (from..to on the value axis, each in its tone) and labelled lines.
      if (si === 0 && (spec.bands || []).length) {
        out.markArea = { silent: true, data: spec.bands.map(function (b) {
          return [{ yAxis: b.from, name: b.label, itemStyle: { color: colour(b.tone), opacity: 0.08 }, label: { color: TEXT_SOFT, position: 'insideLeft' } }, { yAxis: b.to }];
        }) };
      }
      if (si === 0 && !legend) out.label = { show: !stacked && spec.kind === 'bar', position: spec.horizontal ? 'right' : 'top', color: TEXT, formatter: function (p) { return fmt(p.value); } };
      return out;
    });
    return base;
  }

  /**
   * A waterfall: each category a step added to the running total (series[0].data, positive in the
   * series' tone, negative in green), the categories named in `totals` drawn from zero as sums,
   * and `lines` (a floor, thresholds) as labelled horizontal lines. An invisible base series lifts
   * each step to where the previous one ended.
   */
  function waterfall(spec, base) {
    var s0 = (spec.series || [])[0] || { name: '', data: [] };
    var totals = spec.totals || [];
    var running = 0;
    var lift = [];
    var bars = spec.categories.map(function (_, i) {
      var v = Number(s0.data[i]) || 0;
      if (totals.indexOf(i) >= 0) {
        lift.push(Math.min(0, v));
        return { value: Math.abs(v), raw: v, itemStyle: { color: colour('blue') } };
      }
      var start = running;
      running += v;
      lift.push(Math.min(start, running));
      return { value: Math.abs(v), raw: v, itemStyle: { color: colour(v >= 0 ? (s0.tone || 'red') : 'green') } };
    });
    // Rule names are long: every one shown, wrapped within its own column. A label wider than its
    // column reaches past it (the first one was cut at the card's edge, neighbours overlapped), so
    // the width is the column's: the drawing's width (spec.width, measured when drawn) less the
    // value axis, shared by the categories.
    var columns = Math.max(1, spec.categories.length);
    var labelWidth = Math.max(40, Math.floor(((Number(spec.width) || 640) - 80) / columns) - 8);
    base.grid = { top: 32, left: 8, right: 24, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' };
    base.tooltip = { trigger: 'axis', confine: true, axisPointer: { type: 'shadow' }, formatter: function (ps) {
      var p = ps.filter(function (x) { return x.seriesIndex === 1; })[0];
      if (!p) return '';
      var raw = p.data.raw;
      return p.name + ': ' + (totals.indexOf(p.dataIndex) >= 0 ? '' : raw > 0 ? '+' : '') + fmt(raw);
    } };
    base.xAxis = categoryAxis(spec.categories);
    base.xAxis.axisLabel.interval = 0;
    base.xAxis.axisLabel.hideOverlap = false;
    base.xAxis.axisLabel.width = labelWidth;
    base.xAxis.axisLabel.overflow = 'break';
    base.xAxis.axisLabel.lineHeight = 14;
    base.yAxis = valueAxis(spec.unit);
    var marks = (spec.lines || []).map(function (l) {
      return { yAxis: l.value, name: l.label, lineStyle: { color: colour(l.tone || 'orange'), type: 'dashed', width: 2 }, label: { formatter: l.label, position: 'insideEndTop', color: TEXT } };
    });
    base.series = [
      { type: 'bar', name: 'base', stack: 'cascata', data: lift, itemStyle: { color: 'transparent' }, emphasis: { disabled: true }, tooltip: { show: false }, silent: true },
      {
        type: 'bar', name: s0.name, stack: 'cascata', data: bars, barMaxWidth: 48,
        // A step says its points (+5); a total bar says what it is too ("Totale: 68"), as its tooltip does.
        label: { show: true, position: 'top', color: TEXT, formatter: function (p) { var r = p.data.raw; return totals.indexOf(p.dataIndex) >= 0 ? p.name + ': ' + fmt(r) : (r > 0 ? '+' : '') + fmt(r); } },
        markLine: marks.length ? { symbol: 'none', silent: true, data: marks } : undefined,
      },
    ];
    return base;
  }

  function draw(figure) {
    if (figure.getAttribute('data-chart-drawn')) return;
    var dataEl = figure.querySelector('script[type="application/json"]');
    var dom = figure.querySelector('.chart-canvas');
    if (!dataEl || !dom) return;
    var spec;
    try { spec = JSON.parse(dataEl.textContent); } catch (_) { return; }
    figure.setAttribute('data-chart-drawn', 'true');
    dom.style.height = (Number(spec.height) || 280) + 'px';
    dom.hidden = false;
    spec.width = dom.clientWidth; // the waterfall sizes its labels to its columns
    try {
      var chart = window.echarts.init(dom, null, { renderer: 'svg' });
      // Once the drawing (and its animation) is complete: what a screenshot or a test waits for.
      chart.on('finished', function () { figure.setAttribute('data-chart-ready', 'true'); });
      chart.setOption(options(spec));
      instances.push({ dom: dom, chart: chart });
    } catch (e) {
      // A chart that cannot be drawn leaves its table as the content; the console says why.
      dom.hidden = true;
      if (window.console) console.error('Grafico ' + figure.id + ' non disegnato:', e);
      return;
    }
    var details = figure.querySelector('details.chart-data');
    if (details && !spec.keepTable) details.open = false;
  }

  /** Forgets the charts an htmx swap removed from the page. */
  function prune() {
    instances = instances.filter(function (i) {
      if (document.body.contains(i.dom)) return true;
      i.chart.dispose();
      return false;
    });
  }

  function drawAll() {
    prune();
    var pending = Array.prototype.filter.call(document.querySelectorAll(SELECTOR), function (f) { return !f.getAttribute('data-chart-drawn'); });
    if (!pending.length) return;
    withEcharts(function () { pending.forEach(draw); });
  }

  var resizeTimer;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () { prune(); instances.forEach(function (i) { i.chart.resize(); }); }, 150);
  });
  document.addEventListener('htmx:afterSwap', drawAll);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', drawAll); else drawAll();
}());
