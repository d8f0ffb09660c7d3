(() => {
  let details = null;
  const data = () => {
    if (details === null) {
      details = {};
      document.querySelectorAll('script.ev-data').forEach(block => {
        const found = JSON.parse(block.textContent);
        for (const [id, entries] of Object.entries(found.e)) details[id] = [found.s, entries];
      });
    }
    return details;
  };
  const draw = event => {
    if (event.dataset.drawn || !event.open) return;
    event.dataset.drawn = '1';
    const run = event.id.replace(/e\d+$/, ''), list = document.createElement('dl');
    const [strings, entries] = data()[event.id] || [[], []];
    for (const [label, text, link, words] of entries) {
      const term = document.createElement('dt'), value = document.createElement('dd');
      term.textContent = strings[label];
      if (typeof link === 'number') {
        const to = document.createElement('a');
        to.href = '#' + run + 'e' + link;
        to.textContent = 'event ' + link;
        value.append(strings[words], to);
      }
      if (strings[text]) {
        const pre = document.createElement('pre');
        pre.textContent = strings[text];
        value.append(pre);
      }
      list.append(term, value);
    }
    event.append(list);
  };
  document.addEventListener('toggle', change => { if (change.target.matches('.tl details')) draw(change.target); }, true);
  const mark = () => {
    let id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (error) { return; }
    const target = id ? document.getElementById(id) : null;
    if (target && target.tagName === 'DETAILS') { target.open = true; draw(target); }
    document.querySelectorAll('.b.cur').forEach(bar => bar.classList.remove('cur'));
    const found = /^(.*)e(\d+)$/.exec(id);
    if (!found) return;
    const run = found[1], at = Number(found[2]);
    document.querySelectorAll('.b[data-f]').forEach(bar => {
      if (bar.dataset.r === run && Number(bar.dataset.f) <= at && at <= Number(bar.dataset.l)) bar.classList.add('cur');
    });
  };
  window.addEventListener('hashchange', mark);
  mark();
  document.querySelectorAll('.wf').forEach(box => {
    const tracks = box.querySelector('.wf-tracks');
    let zoom = 1;
    box.querySelectorAll('button[data-zoom]').forEach(button => button.addEventListener('click', () => {
      const factor = Number(button.dataset.zoom);
      zoom = factor ? Math.min(Math.max(zoom * factor, 1), 4096) : 1;
      tracks.style.width = (zoom * 100) + '%';
    }));
  });
})();
