// Tasks and batches, live (polled every second, and on while the server cannot be reached): a
// progress bar per batch from its `progress` object while it runs, durations, and each failed
// task's error.
import { api, ApiError } from '../api.js';
import { duration, el, when } from '../format.js';

const POLL_MS = 1000;
const STATUSES = ['enqueued', 'processing', 'succeeded', 'failed', 'canceled'];

export async function render(main, _params, { showFailure }) {
  const statusSelect = el('select', { id: 'task-status' },
    el('option', { value: '' }, 'any status'), STATUSES.map((s) => el('option', { value: s }, s)));
  const batches = el('div', { class: 'scroll panel' }, el('p', { class: 'muted' }, 'Loading…'));
  const tasks = el('div', { class: 'scroll panel' });
  main.append(
    el('h1', {}, 'Tasks and batches'),
    el('h2', { id: 'batches-title' }, 'Batches'), batches,
    el('h2', { id: 'tasks-title' }, 'Tasks'),
    el('div', { class: 'options' }, el('label', { for: 'task-status' }, 'Show tasks with'), statusSelect),
    tasks,
  );
  let timer = null;
  let stopped = false;
  const poll = async () => {
    try {
      const status = statusSelect.value;
      const [b, t] = await Promise.all([
        api('GET', '/batches?limit=20'),
        api('GET', `/tasks?limit=50${status === '' ? '' : `&statuses=${status}`}`),
      ]);
      if (stopped) return;
      batches.replaceChildren(batchTable(b.results));
      tasks.replaceChildren(taskTable(t.results));
      timer = setTimeout(poll, POLL_MS);
    } catch (error) {
      if (stopped) return;
      showFailure(batches, error);
      // a refused key waits for another; a server out of reach (restarting) is asked again
      if (!(error instanceof ApiError)) timer = setTimeout(poll, POLL_MS);
    }
  };
  statusSelect.addEventListener('change', () => {
    clearTimeout(timer);
    poll();
  });
  await poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** A batch's progress: the running one's percentage and current step, 100 % once finished. */
function progressCell(batch) {
  const running = batch.progress !== null && batch.progress !== undefined;
  const percent = running ? batch.progress.percentage : 100;
  const step = running ? batch.progress.steps.map((s) => `${s.currentStep} (${s.finished}/${s.total})`).join(' › ') : '';
  const label = `${percent.toFixed(1).replace(/\.0$/, '')}%`;
  return el('td', {},
    el('div', { class: 'bar' },
      el('progress', { max: '100', value: String(percent), 'aria-label': `Batch ${batch.uid} progress` }),
      el('span', { class: 'percent', 'data-batch': batch.uid }, label)),
    step === '' ? null : el('div', { class: 'muted' }, step));
}

function batchTable(batches) {
  if (batches.length === 0) return el('p', {}, 'No batch yet.');
  return el('table', { 'aria-labelledby': 'batches-title' },
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'Batch'), el('th', { scope: 'col' }, 'Tasks'), el('th', { scope: 'col' }, 'Progress'),
      el('th', { scope: 'col' }, 'Duration'), el('th', { scope: 'col', class: 'wide' }, 'Started'))),
    el('tbody', {}, batches.map((batch) => {
      const types = Object.entries(batch.stats.types ?? {}).map(([type, n]) => `${n} ${type}`).join(', ');
      const statuses = Object.entries(batch.stats.status ?? {}).map(([s, n]) => el('span', { class: `status-${s}` }, `${n} ${s} `));
      const indexes = Object.keys(batch.stats.indexUids ?? {}).join(', ');
      return el('tr', { 'data-batch-row': batch.uid },
        el('th', { scope: 'row' }, `#${batch.uid}`),
        el('td', {}, types, indexes === '' ? '' : ` on ${indexes}`, el('div', {}, statuses)),
        progressCell(batch),
        el('td', {}, batch.duration === null ? 'running' : duration(batch.duration)),
        el('td', { class: 'wide' }, when(batch.startedAt)));
    })));
}

function taskTable(tasks) {
  if (tasks.length === 0) return el('p', {}, 'No task.');
  return el('table', { 'aria-labelledby': 'tasks-title' },
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'Task'), el('th', { scope: 'col' }, 'Type'), el('th', { scope: 'col' }, 'Index'),
      el('th', { scope: 'col' }, 'Status'), el('th', { scope: 'col' }, 'Duration'), el('th', { scope: 'col', class: 'wide' }, 'Enqueued'))),
    el('tbody', {}, tasks.flatMap((task) => {
      const row = el('tr', {},
        el('th', { scope: 'row' }, `#${task.uid}`),
        el('td', {}, task.type),
        el('td', {}, task.indexUid ?? '—'),
        el('td', {}, el('span', { class: `status-${task.status}` }, task.status), task.batchUid === null ? '' : el('span', { class: 'muted' }, ` in #${task.batchUid}`)),
        el('td', {}, duration(task.duration)),
        el('td', { class: 'wide' }, when(task.enqueuedAt)));
      if (task.error === null || task.error === undefined) return [row];
      const error = el('tr', { class: 'task-error' }, el('td', { colspan: '6' },
        el('span', { class: 'error' }, task.error.message), ' ',
        task.error.link ? el('a', { href: task.error.link }, task.error.code) : el('code', {}, task.error.code)));
      return [row, error];
    })));
}
