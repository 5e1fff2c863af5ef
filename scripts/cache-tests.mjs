// Copyright (c) 2026 The Lookahead authors. SPDX-License-Identifier: MIT
// Runs the public HTTP cache test suite (http-tests/cache-tests) against Lookahead's disk cache. Run it through
// scripts/cache-tests, which builds the Swift side first:  node scripts/cache-tests.mjs SUITE BINARY [options]
//
// - The suite's own server answers the tests (its config, test and state handlers, unchanged), in this process.
//   One thing differs: a test response's body is served as a PNG, since the pipeline keeps only images. The PNG
//   is one row of grey pixels, one per byte of the body the suite wrote, and carries that body again, base64, in a
//   `tEXt` chunk (keyword `body`); the server's default `Content-Type` (`text/plain`) becomes `image/png`.
// - The suite's own client runs every applicable test with its own expectation logic (`runTests`, browser mode),
//   with `fetch` replaced for the tests' URLs: each call is a `load` command to lookahead-cache-tests, which loads
//   it through one pipeline per test (`data(for:)`, or `image(for:)` with the memory cache). The body the suite
//   then checks is read back from the `tEXt` chunk of the bytes data(for:) returned, or from the pixels image(for:)
//   decoded. A failed load is a rejected fetch, as a browser's network error. A load that fails with an HTTP status
//   (a `404`) answers that status and its fields, without a body: the pipeline has none to give, so that request's
//   body is not checked. Fetch's `cache: 'no-cache'` adds `Cache-Control: max-age=0`, as the Fetch standard says.
// - Applicable: what the suite runs for browsers, less the tests whose requests use another method than GET or a
//   `Range` header, and those whose responses set `Content-Length` (the length of the suite's text body, not the
//   PNG's). Totals count a test as passing when the suite's result is `true`, as cache-tests.fyi does.

import http from 'node:http'
import path from 'node:path'
import readline from 'node:readline'
import zlib from 'node:zlib'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const [suiteDir, binary, ...args] = process.argv.slice(2)
const options = { paths: ['data', 'image'], ids: [], failureBackoff: false, json: null }
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--path') options.paths = args[++i] === 'both' ? ['data', 'image'] : [args[i]]
  else if (args[i] === '--id') options.ids.push(args[++i])
  else if (args[i] === '--failure-backoff') options.failureBackoff = true
  else if (args[i] === '--json') options.json = args[++i]
  else throw new Error(`unknown option ${args[i]}`)
}

const load = relative => import(pathToFileURL(path.join(suiteDir, relative)).href)
const { default: suites } = await load('tests/index.mjs')
const { runTests } = await load('test-engine/client/runner.mjs')
const { testResults } = await load('test-engine/client/test.mjs')
const { determineTestResult } = await load('test-engine/lib/results.mjs')
const { default: handleConfig } = await load('test-engine/server/handle-config.mjs')
const { default: handleTest } = await load('test-engine/server/handle-test.mjs')
const { default: handleState } = await load('test-engine/server/handle-state.mjs')
const { configs } = await load('test-engine/server/utils.mjs')

// MARK: - Which tests apply

function skipReason (test) {
  if (test.cdn_only) return 'CDN only'
  if (test.browser_skip) return 'not run for browsers'
  if (test.requests.some(r => (r.request_method || 'GET') !== 'GET')) return 'a method other than GET'
  if (test.requests.some(r => (r.request_headers || []).some(h => h[0].toLowerCase() === 'range'))) return 'Range'
  if (test.requests.some(r => (r.response_headers || []).some(h => h[0].toLowerCase() === 'content-length'))) {
    return 'Content-Length of the text body'
  }
  return null
}

const skipped = {}
const applicable = suites.map(suite => ({
  ...suite,
  tests: suite.tests.filter(test => {
    const reason = skipReason(test)
    if (reason) skipped[reason] = (skipped[reason] || 0) + 1
    return !reason && (options.ids.length === 0 || options.ids.includes(test.id))
  })
})).filter(suite => suite.tests.length > 0)
const applicableCount = applicable.reduce((count, suite) => count + suite.tests.length, 0)

// MARK: - Bodies as PNG

function chunk (type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(typed))
  return Buffer.concat([length, typed, crc])
}

// One row of 8-bit grey pixels, a byte of the body each (one black pixel for an empty body), and the body in `tEXt`.
function png (body) {
  const bytes = Buffer.from(body, 'utf8')
  const header = Buffer.alloc(13)
  header.writeUInt32BE(Math.max(1, bytes.length), 0)
  header.writeUInt32BE(1, 4)
  header.set([8, 0, 0, 0, 0], 8)
  const row = Buffer.concat([Buffer.from([0]), bytes.length > 0 ? bytes : Buffer.from([0])])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('tEXt', Buffer.from(`body\0${bytes.toString('base64')}`, 'latin1')),
    chunk('IDAT', zlib.deflateSync(row)),
    chunk('IEND', Buffer.alloc(0))
  ])
}

// The body carried by a PNG's `tEXt` chunk; `null` when there is none.
function bodyOfPNG (data) {
  for (let offset = 8; offset + 8 <= data.length;) {
    const length = data.readUInt32BE(offset)
    const type = data.toString('latin1', offset + 4, offset + 8)
    const content = data.subarray(offset + 8, offset + 8 + length)
    if (type === 'tEXt' && content.toString('latin1').startsWith('body\0')) {
      return Buffer.from(content.toString('latin1', 5), 'base64').toString('utf8')
    }
    offset += 12 + length
  }
  return null
}

// MARK: - The suite's server

const server = http.createServer((request, response) => {
  const segments = new URL(request.url, 'http://localhost').pathname.split('/').slice(1)
  const dispatch = segments.shift()
  if (dispatch === 'config') return handleConfig(segments, request, response)
  if (dispatch === 'state') return handleState(segments, request, response)
  if (dispatch !== 'test') {
    response.writeHead(404)
    return response.end()
  }
  // The test's own response fields, to tell the server's default `Content-Type` from one the test sets.
  const reqConfig = configs.get(segments[0])?.[parseInt(request.headers['req-num']) - 1]
  const setsType = (reqConfig?.response_headers || []).some(h => h[0].toLowerCase() === 'content-type')
  const end = response.end.bind(response)
  response.end = (content, ...rest) => {
    if (content === undefined || content === null || typeof content === 'function') return end(content, ...rest)
    if (!setsType) response.setHeader('Content-Type', 'image/png')
    return end(png(String(content)))
  }
  handleTest(segments, request, response)
})
await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
const baseUrl = `http://127.0.0.1:${server.address().port}`

// MARK: - The Swift side

const client = spawn(binary, options.failureBackoff ? ['--failure-backoff'] : [], {
  stdio: ['pipe', 'pipe', 'inherit']
})
const waiting = new Map()
let nextSeq = 1
readline.createInterface({ input: client.stdout }).on('line', line => {
  const answer = JSON.parse(line)
  waiting.get(answer.seq)?.(answer)
  waiting.delete(answer.seq)
})
function send (command) {
  const seq = nextSeq++
  return new Promise(resolve => {
    waiting.set(seq, resolve)
    client.stdin.write(JSON.stringify({ seq, ...command }) + '\n')
  })
}

// MARK: - fetch() through the pipeline

const realFetch = globalThis.fetch
const opened = new Map()
let currentPath = 'data'
// The tests of the path running now, by id: each path runs on its own copy (the client writes dates into them).
let testsById = new Map()

function testOfRequest (uuid) {
  if (!opened.has(uuid)) opened.set(uuid, send({ command: 'open', test: uuid, path: currentPath }))
  return opened.get(uuid)
}

async function pipelineFetch (url, init = {}) {
  const uuid = new URL(url).pathname.split('/')[2]
  await testOfRequest(uuid)
  const headers = (init.headers || []).map(([name, value]) => [name, String(value)])
  const has = name => headers.some(h => h[0].toLowerCase() === name)
  // Fetch standard, HTTP-network-or-cache fetch: the cache modes that add request fields.
  if (init.cache === 'no-cache' && !has('cache-control')) headers.push(['Cache-Control', 'max-age=0'])
  if ((init.cache === 'no-store' || init.cache === 'reload') && !has('cache-control')) {
    headers.push(['Pragma', 'no-cache'], ['Cache-Control', 'no-cache'])
  }
  const loading = send({ command: 'load', test: uuid, url, headers, options: init.cache ? [init.cache] : [] })
  const aborted = new Promise((resolve, reject) => init.signal?.addEventListener('abort', () => {
    reject(new DOMException('The load took longer than the suite waits', 'AbortError'))
  }))
  const answer = await Promise.race([loading, aborted])
  if (answer.outcome === 'error') throw new TypeError(`Load failed: ${answer.error}`)
  const responseHeaders = new Headers()
  for (const [name, value] of Object.entries(answer.headers || {})) {
    try { responseHeaders.append(name, value) } catch {}
  }
  let text = ''
  if (answer.outcome === 'status') {
    // The pipeline fails with the status and its fields: there is no body to check.
    const test = testsById.get(headers.find(h => h[0] === 'Test-ID')?.[1])
    const reqConfig = test?.requests[parseInt(headers.find(h => h[0] === 'Req-Num')?.[1]) - 1]
    if (reqConfig) reqConfig.check_body = false
  } else {
    const bytes = Buffer.from(answer.body || '', 'base64')
    text = currentPath === 'data' ? (bodyOfPNG(bytes) ?? bytes.toString('latin1')) : bytes.toString('utf8').replace(/\0+$/, '')
  }
  return {
    status: answer.status,
    statusText: '',
    ok: answer.status >= 200 && answer.status < 300,
    url,
    headers: responseHeaders,
    text: async () => text
  }
}

globalThis.fetch = async (url, init) => {
  const pathname = new URL(url).pathname
  if (pathname.startsWith('/test/')) return pipelineFetch(url, init)
  if (pathname.startsWith('/state/')) {
    // The test's last request is done: wait for its pipeline's writes and background revalidations, then drop it.
    const uuid = pathname.split('/')[2]
    if (opened.has(uuid)) await send({ command: 'close', test: uuid })
  }
  return realFetch(url, init)
}

// MARK: - Runs and totals

const symbols = { required: '⛔️', optimal: '⚠️', check: 'N' }

async function run (pathName) {
  currentPath = pathName
  for (const id of Object.keys(testResults)) delete testResults[id]
  const pathTests = structuredClone(applicable)
  testsById = new Map(pathTests.flatMap(suite => suite.tests.map(test => [test.id, test])))
  await runTests(pathTests, true, baseUrl)
  const results = { ...testResults }
  const totals = { required: [0, 0], optimal: [0, 0], check: [0, 0] }
  const label = pathName === 'data' ? 'data(for:)' : 'image(for:), memory cache following HTTP freshness'
  console.log(`\n== ${label}`)
  for (const suite of applicable) {
    for (const test of suite.tests) {
      const kind = test.kind || 'required'
      const passed = results[test.id] === true
      totals[kind][0] += passed ? 1 : 0
      totals[kind][1] += 1
      const symbol = passed ? (kind === 'check' ? 'Y' : '✅') : symbols[kind]
      const raw = determineTestResult(suites, test.id, results, false)[2]
      const detail = passed ? '' : ` — ${raw} ${Array.isArray(results[test.id]) ? results[test.id].join(': ') : 'no result'}`
      console.log(`${symbol} ${kind.padEnd(8)} ${test.id}${detail}`)
    }
  }
  const share = ([passed, total]) => `${passed}/${total} (${total ? (100 * passed / total).toFixed(1) : '0.0'} %)`
  if (options.json) {
    const file = options.json.replace(/(\.json)?$/, `-${pathName}.json`)
    writeFileSync(file, JSON.stringify(results, null, 2))
  }
  return `cache-tests: required ${share(totals.required)}, optimal ${share(totals.optimal)} — ${label}` +
    ` (check: ${totals.check[0]}/${totals.check[1]} yes)`
}

const lines = []
for (const pathName of options.paths) lines.push(await run(pathName))
console.log(`\n${applicableCount} applicable tests; not applicable: ` +
  Object.entries(skipped).map(([reason, count]) => `${count} ${reason}`).join(', '))
lines.forEach(line => console.log(line))
client.stdin.end()
server.close()
await new Promise(resolve => client.on('exit', resolve))
