/**
 * `npm run bench:signal`: Signal Circuit battles and odds simulations per second, next to a bare
 * baseline in the same run (the same number of PRNG draws with nothing else), and the time of one
 * simulation at the bound — which must stay under 100 ms for one request. Then card share images
 * rendered per second, next to pngjs writing a blank image of the same size with the same options
 * (the least any PNG of that size costs).
 */
import { simulateOdds, SIMULATION_BOUND } from '../core/signal/simulation.js'
import { seededRng } from '../core/signal/prng.js'
import { PNG } from 'pngjs'
import { renderShareImage } from '../core/cards/share-image.js'
import { ProceduralArtGenerator } from '../adapters/memory/procedural-art.js'

const runs = Number(process.env.BENCH_RUNS ?? 20)
const time = (run: () => unknown): number => {
  run() // warm-up
  const started = performance.now()
  for (let i = 0; i < runs; i++) run()
  return (performance.now() - started) / runs
}

const atBound = time(() => simulateOdds('bench', SIMULATION_BOUND))
// A battle draws about 4 numbers per exchange and lasts a few exchanges: the bare loop draws the
// same count the simulation at the bound draws, measured by a counting RNG.
let draws = 0
const counting = seededRng('bench-count')
const original = counting.below.bind(counting)
counting.below = (n) => (draws++, original(n))
const { battle, statsOf } = await import('../core/signal/engine.js')
const { REFERENCE_CARDS } = await import('../core/signal/simulation.js')
for (let i = 0; i < SIMULATION_BOUND; i++) battle(statsOf(REFERENCE_CARDS.a), statsOf(REFERENCE_CARDS.b), counting)
const bare = time(() => {
  const rng = seededRng('bare')
  for (let i = 0; i < draws; i++) rng.below(6)
})

console.log(`node ${process.version}, mean of ${runs} runs after a warm-up`)
console.log(`simulation at the bound (${SIMULATION_BOUND} battles, ${draws} draws): ${atBound.toFixed(1)} ms (target < 100 ms) ${atBound < 100 ? 'MET' : 'NOT MET'}`)
console.log(`  ${((SIMULATION_BOUND / atBound) * 1000).toFixed(0)} battles/s`)
console.log(`bare PRNG, the same ${draws} draws: ${bare.toFixed(1)} ms (${(atBound / bare).toFixed(2)}× for the whole simulation)`)

// Share images: the art is drawn once (as a stored card's art is), each render draws and encodes.
const claimHash = 'c4'.repeat(32)
const art = (await new ProceduralArtGenerator().generate({ claimHash, description: '' })).bytes
const card = { name: 'Mickey Mantle', line: 'baseball topps-1952-311', verify: 'cairn.example/verify/ABCD1234', claimHash, art }
const renderMs = time(() => renderShareImage(card))
const blankMs = time(() => {
  const png = new PNG({ width: 360, height: 504 })
  return PNG.sync.write(png, { colorType: 2, inputColorType: 6, inputHasAlpha: true, deflateLevel: 0, filterType: 0 })
})
console.log(`share image 360×504: ${renderMs.toFixed(2)} ms, ${(1000 / renderMs).toFixed(0)} renders/s`)
console.log(`bare pngjs write of a blank 360×504 image: ${blankMs.toFixed(2)} ms, ${(1000 / blankMs).toFixed(0)} writes/s (${(renderMs / blankMs).toFixed(2)}× for the whole render)`)
