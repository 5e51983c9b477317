import assert from 'node:assert/strict';
import { jsonForScript } from '../../src/http/json-script';
import { createViews } from '../../src/http/views';
import { categoryChart, formatWeek, weeklyChart, weeklyTotal } from '../../src/kit/charts';
import { listaLabel as listName } from '../../src/domains/screening/screening.labels';
import { chartOf } from '../helpers/chart-seeds';

const views = createViews();
const render = (p: Record<string, unknown>) => views.renderString('{% from "macros/chart.njk" import chart %}{{ chart(p) }}', { p });

describe('chart macro (views/macros/chart.njk) and its data', () => {
  it('json_script: the same JSON, with nothing that can close the script element or open a comment', () => {
    const value = { t: '</script><script>alert(1)</script>', c: '<!-- & -->', s: 'a\u2028b\u2029c', n: [1, 2.5] };
    const out = jsonForScript(value);
    assert.doesNotMatch(out, /[<>&\u2028\u2029]/);
    assert.deepEqual(JSON.parse(out), value);
    assert.equal(jsonForScript(undefined), 'null');
  });

  it('renders a heatmap: x and y categories, [x, y, value] cells, a missing cell as 0 in the table', () => {
    const out = render({
      id: 'rischio', title: 'Clienti per rischio', kind: 'heatmap', categories: ['Basso', 'Medio', 'Alto'], yCategories: ['Persona fisica', 'Società'],
      series: [{ name: 'Clienti', tone: 'red', data: [[0, 0, 12345], [2, 0, 3], [1, 1, 7]] }], unit: 'clienti', table: { header: 'Tipo di cliente' },
    });
    const { spec, rows } = chartOf(out, 'rischio');
    assert.equal(spec.kind, 'heatmap');
    assert.deepEqual((spec as unknown as { yCategories: string[] }).yCategories, ['Persona fisica', 'Società']);
    assert.deepEqual(spec.series[0]!.data, [[0, 0, 12345], [2, 0, 3], [1, 1, 7]]);
    assert.deepEqual(rows, [['Persona fisica', '12.345', '0', '3'], ['Società', '0', '7', '0']]);
    assert.match(out, /<th scope="col">Tipo di cliente<\/th><th scope="col" class="text-end">Basso<\/th>/);
    assert.match(out, /<caption class="visually-hidden">Clienti per rischio \(numero di clienti\)<\/caption>/);
  });

  it('renders a stacked bar with a total per category, and escapes what it shows', () => {
    const out = render({
      id: 'pila', title: 'Titolo </script>', kind: 'stacked-bar', categories: ['16 nov', '23 nov'],
      series: [{ name: 'Aperta', data: [2, 0] }, { name: 'Chiusa <b>', data: [12000, 1] }],
    });
    const { spec, rows } = chartOf(out, 'pila');
    assert.equal((spec as unknown as { title: string }).title, 'Titolo </script>');
    assert.deepEqual(rows, [['16 nov', '2', '12.000', '12.002'], ['23 nov', '0', '1', '1']]);
    assert.match(out, /<th scope="col" class="text-end">Chiusa &lt;b&gt;<\/th>/);
    assert.equal(out.split('</script>').length, 2, 'only the data block\'s own end tag');
    assert.match(out, /<details class="chart-data mt-2" open>/, 'without JavaScript the table is shown');
  });

  it('shapes weekly counts with every week and every key (0, not a gap), and counts per category', () => {
    const w = { weeks: ['2026-11-02', '2026-11-09', '2026-11-16'], rows: [{ week: '2026-11-09', key: 'open', n: 4 }, { week: '2026-11-16', key: 'closed', n: 1 }] };
    const chart = weeklyChart(w, ['open', 'assigned', 'closed'], { open: 'Aperta', assigned: 'Assegnata', closed: 'Chiusa' }, { open: 'blue' });
    assert.deepEqual(chart.categories, ['2 nov', '9 nov', '16 nov']);
    assert.deepEqual(chart.series, [
      { name: 'Aperta', tone: 'blue', data: [0, 4, 0] }, { name: 'Assegnata', tone: undefined, data: [0, 0, 0] }, { name: 'Chiusa', tone: undefined, data: [0, 0, 1] },
    ]);
    assert.deepEqual(weeklyTotal(w, 'Nuove', 'blue').series[0]!.data, [0, 4, 1]);
    assert.equal(formatWeek('2026-12-28'), '28 dic');
    assert.deepEqual(categoryChart({ b: 2 }, ['a', 'b'], { a: 'A', b: 'B' }, 'Casi', { a: 'red' }), { categories: ['A', 'B'], series: [{ name: 'Casi', data: [0, 2] }], tones: ['red', ''] });
  });

  it('names a sanctions list as people know it, and keeps an unknown id', () => {
    assert.equal(listName('us_ofac_sdn_2021_07'), 'OFAC SDN (USA), luglio 2021');
    assert.equal(listName('gb_hmt_sanctions'), 'Regno Unito, HM Treasury');
    assert.equal(listName('nuova_lista'), 'nuova_lista');
  });
});
