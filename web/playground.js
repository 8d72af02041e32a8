// kmerge playground: the page's side. kmerge itself runs in kmerge.wasm
// (web/wasm, internal/playground); this file keeps the editors, calls
// kmergeRun as you type, shows what it answers, and keeps the state in the
// URL's fragment so that a link shares it. See docs/playground.md.
'use strict';

const EXAMPLES = {
  kpatch: {
    patchFormat: 'kpatch',
    explain: 'deployment.spec.template.spec.containers',
    manifests: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
  labels: {app: shop}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: web       # the storefront
        image: registry.example.com/shop/web:1.4.2
        env:
        - {name: LOG_LEVEL, value: info}
      - name: metrics
        image: prom/statsd-exporter:v0.26.0
---
apiVersion: v1
kind: Service
metadata:
  name: shop
spec:
  selector: {app: shop}
  ports:
  - name: http
    port: 80
`,
    patches: `# staging overrides
[deployment.shop]
replicas: \${values.replicas}
metadata.labels.version: 1.5   # a label: stays the string "1.5"

[deployment.shop.containers.name=web]
image: registry.example.com/shop/web:\${values.version}
env[name=LOG_LEVEL].value: debug

[deployment.shop.containers.name=metrics]
!delete

[service.shop.ports.name=http]
port: 8080
`,
    values: `replicas: 3
version: "1.5.0"
`,
    schema: '',
  },
  list: {
    patchFormat: 'yaml',
    explain: 'service.spec.ports',
    manifests: `apiVersion: v1
kind: Service
metadata:
  name: dns
spec:
  ports:
  - {name: dns-tcp, port: 53, protocol: TCP}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: "fast"   # quoted: kept as written
  region: eu-west-1
`,
    patches: `# a strategic patch: list items merge by the keys the schema names;
# $patchMergeKey makes port AND protocol identify the item
- target: service.dns
  type: strategic
  patch:
    spec:
      ports:
      - $patchMergeKey: [port, protocol]
        name: dns-udp
        port: 53
        protocol: UDP

# a JSON merge patch (RFC 7396): null deletes
- target: configmap.settings
  type: merge
  patch:
    data:
      region: null
      owner: \${values.team}
`,
    values: `team: platform
`,
    schema: '',
  },
  crd: {
    patchFormat: 'yaml',
    explain: 'widget.spec.parts',
    manifests: `apiVersion: example.com/v1
kind: Widget
metadata:
  name: banner
spec:
  parts:
  - name: frame
    color: black
  - name: light
    color: white
`,
    patches: `# with the CRD (Schema, below), parts merge by name:
# frame changes colour, light stays, glow is added
- target: widget.banner
  type: strategic
  patch:
    spec:
      parts:
      - name: frame
        color: gold
      - name: glow
        color: yellow
`,
    values: '',
    schema: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              parts:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  properties:
                    name: {type: string}
                    color: {type: string}
`,
  },
};

const $ = (id) => document.getElementById(id);

// Editor is a textarea with line numbers and marked lines (errors and
// warnings) drawn behind its transparent background.
class Editor {
  constructor(textarea) {
    this.ta = textarea;
    this.pane = textarea.closest('.pane');
    this.gutter = this.pane.querySelector('.gutter');
    this.marks = this.pane.querySelector('.marks');
    this.marked = []; // {line, kind}
    this.lines = 0;
    this.escaped = false;
    textarea.addEventListener('scroll', () => this.sync());
    textarea.addEventListener('input', () => this.draw());
    textarea.addEventListener('keydown', (e) => this.key(e));
  }

  get value() { return this.ta.value; }
  set value(v) { this.ta.value = v; this.draw(); }

  lineHeight() { return parseFloat(getComputedStyle(this.ta).lineHeight) || 20; }
  padTop() { return parseFloat(getComputedStyle(this.ta).paddingTop) || 0; }

  // Tab indents by two spaces; Escape, then Tab, leaves the editor.
  key(e) {
    if (e.key === 'Escape') { this.escaped = true; return; }
    if (e.key !== 'Tab' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || this.escaped) { this.escaped = false; return; }
    e.preventDefault();
    if (!document.execCommand('insertText', false, '  ')) {
      this.ta.setRangeText('  ', this.ta.selectionStart, this.ta.selectionEnd, 'end');
      this.ta.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }

  mark(marked) { this.marked = marked; this.draw(true); }

  draw(force) {
    const n = this.ta.value.split('\n').length;
    if (n === this.lines && !force) return;
    this.lines = n;
    const kinds = new Map();
    for (const m of this.marked) {
      if (m.line >= 1 && m.line <= n && kinds.get(m.line) !== 'err') kinds.set(m.line, m.kind);
    }
    const nums = [];
    for (let i = 1; i <= n; i++) {
      nums.push(kinds.has(i) ? `<span class="${kinds.get(i)}">${i}</span>` : String(i));
    }
    this.gutter.innerHTML = nums.join('\n') + '\n'; // numbers and fixed class names only
    this.marks.replaceChildren();
    const lh = this.lineHeight(), pad = this.padTop();
    for (const [line, kind] of kinds) {
      const div = document.createElement('div');
      div.className = 'mark ' + kind;
      div.style.top = (pad + (line - 1) * lh) + 'px';
      this.marks.append(div);
    }
    this.sync();
  }

  sync() {
    this.gutter.scrollTop = this.ta.scrollTop;
    this.marks.style.transform = `translateY(${-this.ta.scrollTop}px)`;
  }

  // reveal selects the text at line:column to the line's end, and scrolls
  // it into view when it is not.
  reveal(line, column) {
    const lines = this.ta.value.split('\n');
    if (line < 1 || line > lines.length) return;
    let start = 0;
    for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
    const end = start + lines[line - 1].length;
    const at = Math.min(end, start + Math.max(0, (column || 1) - 1));
    if (this.pane.tagName === 'DETAILS') this.pane.open = true;
    this.ta.focus();
    this.ta.setSelectionRange(at, end);
    const lh = this.lineHeight(), top = (line - 1) * lh;
    if (top < this.ta.scrollTop || top + 2 * lh > this.ta.scrollTop + this.ta.clientHeight) {
      this.ta.scrollTop = Math.max(0, top - this.ta.clientHeight / 3); // out of view: a third down
    }
    this.sync();
  }
}

const editors = {
  manifests: new Editor($('manifests')),
  patches: new Editor($('patches')),
  values: new Editor($('values')),
  schema: new Editor($('schema')),
};

// editorOf finds the editor of a file name kmerge gives in a message.
function editorOf(file) {
  switch (file) {
    case 'manifests.yaml': return editors.manifests;
    case 'patches.kpatch': case 'patches.yaml': return editors.patches;
    case 'values.yaml': return editors.values;
    case 'schema.yaml': return editors.schema;
  }
  return null;
}

function input() {
  return {
    manifests: editors.manifests.value,
    patches: editors.patches.value,
    patchFormat: $('patchFormat').value,
    values: editors.values.value,
    features: $('features').value,
    schema: editors.schema.value,
    explain: $('explain').value,
    strict: $('strict').checked,
    showSecrets: $('showSecrets').checked,
  };
}

function load(state) {
  const str = (v) => (typeof v === 'string' ? v : '');
  editors.manifests.value = str(state.manifests);
  editors.patches.value = str(state.patches);
  editors.values.value = str(state.values);
  editors.schema.value = str(state.schema);
  $('patchFormat').value = state.patchFormat === 'yaml' ? 'yaml' : 'kpatch';
  $('explain').value = str(state.explain);
  $('features').value = str(state.features);
  $('strict').checked = state.strict === true;
  $('showSecrets').checked = state.showSecrets === true;
  $('schemaPane').open = str(state.schema).trim() !== '';
}

// ---- the URL: #z= deflate-raw compressed JSON, or #j= plain JSON, base64url

function toBase64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}

async function piped(bytes, transform) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(transform)).arrayBuffer());
}

async function encodeState(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  if (typeof CompressionStream === 'function') {
    try {
      return 'z=' + toBase64url(await piped(bytes, new CompressionStream('deflate-raw')));
    } catch (e) { /* no deflate-raw here: plain below */ }
  }
  return 'j=' + toBase64url(bytes);
}

async function decodeState(hash) {
  const m = /^#?([zj])=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!m) return null;
  let bytes = fromBase64url(m[2]);
  if (m[1] === 'z') bytes = await piped(bytes, new DecompressionStream('deflate-raw'));
  const state = JSON.parse(new TextDecoder().decode(bytes));
  return state && typeof state === 'object' ? state : null;
}

let saving = 0;
async function saveToURL(state) {
  const mine = ++saving;
  const hash = '#' + await encodeState(state);
  if (mine === saving && location.hash !== hash) history.replaceState(null, '', hash);
}

// ---- running kmerge

let ready = false;
let timer = 0;
let runs = 0;

let changes = 0;

// schedule runs kmerge 150 ms after the last change. body[data-pending] is
// "1" from a change until the page shows its outcome and the URL holds it
// (a test waits for "0").
function schedule() {
  changes++;
  clearTimeout(timer);
  document.body.dataset.pending = '1';
  timer = setTimeout(run, 150);
}

function run() {
  if (!ready) return;
  clearTimeout(timer);
  const change = changes;
  const state = input();
  const t0 = performance.now();
  let out;
  try {
    out = JSON.parse(globalThis.kmergeRun(JSON.stringify(state)));
  } catch (e) {
    out = { error: { text: 'kmerge stopped: ' + e.message + ' (reload the page)' } };
  }
  show(out, performance.now() - t0);
  document.body.dataset.state = out.error ? 'error' : 'ok';
  document.body.dataset.runs = String(++runs);
  saveToURL(state).finally(() => {
    if (change === changes) document.body.dataset.pending = '0';
  });
}

function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

function show(out, ms) {
  // the outputs: kept, faded, while an error stands
  for (const id of ['result', 'diff', 'trace']) $(id).classList.toggle('stale', !!out.error);
  if (!out.error) {
    showResult(out.result || '', out.diff || '');
    showDiff(out.diff || '');
    $('trace').textContent = out.trace || 'No changes.';
  }
  const status = $('status');
  if (out.error) {
    status.className = 'error';
    status.textContent = out.error.file ? `error in ${out.error.file}:${out.error.line}` : 'error';
  } else {
    status.className = 'ok';
    status.textContent = [plural(out.objects, 'object', 'objects'), plural(out.patches, 'patch', 'patches'),
      plural((out.warnings || []).length, 'warning', 'warnings'), plural((out.conflicts || []).length, 'conflict', 'conflicts'),
      Math.max(1, Math.round(ms)) + ' ms'].join(' · ');
  }
  showMessages(out);
  showExplain(out);
}

// showResult shows the patched manifests, the lines the diff adds marked.
function showResult(result, diff) {
  const added = new Set();
  let line = 0;
  for (const l of diff.split('\n')) {
    const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (h) { line = Number(h[1]); continue; }
    if (!line || l.startsWith('---') || l.startsWith('+++')) continue;
    if (l.startsWith('+')) { added.add(line); line++; } else if (l.startsWith(' ')) line++;
  }
  const pre = $('result');
  pre.replaceChildren();
  const lines = result.replace(/\n$/, '').split('\n');
  lines.forEach((text, i) => {
    if (added.has(i + 1)) {
      const span = document.createElement('span');
      span.className = 'add';
      span.textContent = text;
      pre.append(span, '\n');
    } else {
      pre.append(text + '\n');
    }
  });
  if (result === '') pre.textContent = '';
}

function showDiff(diff) {
  const pre = $('diff');
  pre.replaceChildren();
  if (diff === '') { pre.textContent = 'No changes.'; return; }
  for (const l of diff.replace(/\n$/, '').split('\n')) {
    const span = document.createElement('span');
    span.className = l.startsWith('---') || l.startsWith('+++') ? 'file'
      : l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : '';
    span.textContent = l;
    pre.append(span, '\n');
  }
}

function showMessages(out) {
  const list = $('messages');
  list.replaceChildren();
  const items = [];
  if (out.error) items.push(['error', out.error]);
  for (const c of out.conflicts || []) items.push(['conflict', c]);
  for (const w of out.warnings || []) items.push(['warning', w]);
  const marks = new Map(Object.values(editors).map((e) => [e, []]));
  for (const [kind, m] of items) {
    const li = document.createElement('li');
    li.className = kind;
    const badge = document.createElement('span');
    badge.className = 'kind';
    badge.textContent = kind;
    const text = document.createElement('span');
    text.className = 'text';
    text.textContent = m.text;
    li.append(badge, text);
    if (m.quote) {
      const pre = document.createElement('pre');
      pre.textContent = m.quote.replace(/\n$/, '');
      li.append(pre);
    }
    const editor = editorOf(m.file);
    if (editor && m.line) {
      li.dataset.line = m.line;
      li.title = `Show ${m.file}:${m.line}`;
      li.addEventListener('click', () => editor.reveal(m.line, m.column));
      marks.get(editor).push({ line: m.line, kind: kind === 'error' ? 'err' : 'warn' });
    }
    list.append(li);
  }
  if (items.length === 0) {
    const li = document.createElement('li');
    li.className = 'none';
    li.textContent = 'No errors, warnings or conflicts.';
    list.append(li);
  }
  for (const [editor, m] of marks) editor.mark(m);
  $('schemaPane').classList.toggle('flagged', marks.get(editors.schema).length > 0);
  if (marks.get(editors.schema).length > 0) $('schemaPane').open = true;
}

function showExplain(out) {
  const pre = $('explainOut');
  pre.classList.toggle('error', !!out.explainError);
  if (out.explainError) pre.textContent = out.explainError.text;
  else if (out.explain) pre.textContent = out.explain;
  else pre.textContent = 'Name a kind or a field above, as kmerge explain takes it:\n  deployment.spec.template.spec.containers\n  service.spec.ports';
}

// ---- the page

function selectTab(name) {
  for (const b of document.querySelectorAll('.tabs button')) {
    const on = b.dataset.tab === name;
    b.setAttribute('aria-selected', String(on));
    $(b.dataset.tab).hidden = !on;
  }
}

async function share() {
  await saveToURL(input());
  const url = location.href;
  const shared = $('shared');
  try {
    await navigator.clipboard.writeText(url);
    shared.textContent = `Link copied (${url.length} characters)`;
  } catch (e) {
    const field = document.createElement('input');
    field.value = url;
    field.readOnly = true;
    field.setAttribute('aria-label', 'Share link');
    shared.replaceChildren(field);
    field.select();
  }
}

async function loadWasm() {
  const go = new Go();
  let result;
  try {
    result = await WebAssembly.instantiateStreaming(fetch('kmerge.wasm'), go.importObject);
  } catch (e) { // served without Content-Type: application/wasm, say
    const resp = await fetch('kmerge.wasm');
    if (!resp.ok) throw new Error(`kmerge.wasm: ${resp.status} ${resp.statusText}`);
    result = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
  }
  const started = new Promise((resolve) => { globalThis.kmergeReady = resolve; });
  go.run(result.instance);
  await started;
  const info = JSON.parse(globalThis.kmergeInfo());
  $('info').textContent = `kmerge compiled to WebAssembly with ${info.go}; built-in schema: k8s.io/api ${info.schema}`;
}

async function start() {
  let state = null;
  try {
    state = await decodeState(location.hash);
  } catch (e) {
    $('shared').textContent = 'This link could not be read: the example is shown instead.';
  }
  load(state || EXAMPLES.kpatch);
  $('example').value = state ? '' : 'kpatch';
  const edited = () => { $('example').value = ''; schedule(); };
  for (const e of Object.values(editors)) e.ta.addEventListener('input', edited);
  $('explain').addEventListener('input', schedule);
  $('patchFormat').addEventListener('change', edited);
  $('features').addEventListener('input', edited);
  $('strict').addEventListener('change', schedule);
  $('showSecrets').addEventListener('change', schedule);
  $('example').addEventListener('change', () => {
    const example = EXAMPLES[$('example').value];
    if (example) { load(example); run(); }
  });
  $('share').addEventListener('click', share);
  for (const b of document.querySelectorAll('.tabs button')) b.addEventListener('click', () => selectTab(b.dataset.tab));
  window.addEventListener('hashchange', async () => {
    try {
      const s = await decodeState(location.hash);
      if (s) { load(s); $('example').value = ''; run(); }
    } catch (e) { $('shared').textContent = 'This link could not be read.'; }
  });
  window.addEventListener('resize', () => Object.values(editors).forEach((e) => e.draw(true)));
  $('schemaPane').addEventListener('toggle', () => editors.schema.draw(true));
  try {
    await loadWasm();
  } catch (e) {
    $('status').className = 'error';
    $('status').textContent = 'kmerge did not load';
    showMessages({ error: { text: `Could not load kmerge.wasm (${e.message}). Serve this folder over HTTP, as docs/playground.md says; a page opened from a file cannot load it.` } });
    document.body.dataset.state = 'failed';
    return;
  }
  ready = true;
  run();
}

start();
