/**
 * Signal Circuit conformance vectors (signal-circuit/1): stats from claim hashes, battle replays and odds simulation output hashes. docs/signal-circuit.md explains the rules.
 * Generated once from the engine and kept as published data: a change here is a change of rules.
 */
export const SIGNAL_CIRCUIT_VECTORS = {
  stats: [
    {
      id: "stats-1",
      claimHash: "bb4efd0de92749acc99a408fcb04783ecc034804d8559bd9f10963d5b3ab5a11",
      expected: {
        power: 9,
        guard: 5,
        tempo: 2,
        charge: 22
      }
    },
    {
      id: "stats-2",
      claimHash: "71847a8107663d3a10314102d48fd542842912eb1ac76b058fe910f341f8f20b",
      expected: {
        power: 5,
        guard: 4,
        tempo: 3,
        charge: 28
      }
    },
    {
      id: "stats-3",
      claimHash: "0000000000000000000000000000000000000000000000000000000000000000",
      expected: {
        power: 4,
        guard: 2,
        tempo: 1,
        charge: 20
      }
    },
    {
      id: "stats-4",
      claimHash: "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
      expected: {
        power: 7,
        guard: 2,
        tempo: 4,
        charge: 22
      }
    },
    {
      id: "stats-5",
      claimHash: "4ad2c0bed290fc7e21ade83ea95b0e61d3e4cdc4795f9c35e8d5bea2a6e583e8",
      expected: {
        power: 8,
        guard: 2,
        tempo: 1,
        charge: 23
      }
    }
  ],
  battles: [
    {
      id: "battle-1",
      claimHashA: "bb4efd0de92749acc99a408fcb04783ecc034804d8559bd9f10963d5b3ab5a11",
      claimHashB: "71847a8107663d3a10314102d48fd542842912eb1ac76b058fe910f341f8f20b",
      seed: "golden-1",
      expected: {
        winner: "a",
        exchanges: 3,
        chargeLeft: {
          a: 15,
          b: -1
        }
      }
    },
    {
      id: "battle-2",
      claimHashA: "71847a8107663d3a10314102d48fd542842912eb1ac76b058fe910f341f8f20b",
      claimHashB: "bb4efd0de92749acc99a408fcb04783ecc034804d8559bd9f10963d5b3ab5a11",
      seed: "golden-2",
      expected: {
        winner: "b",
        exchanges: 4,
        chargeLeft: {
          a: -8,
          b: 13
        }
      }
    },
    {
      id: "battle-3",
      claimHashA: "0000000000000000000000000000000000000000000000000000000000000000",
      claimHashB: "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
      seed: "commit-reveal",
      expected: {
        winner: "b",
        exchanges: 3,
        chargeLeft: {
          a: -4,
          b: 10
        }
      }
    },
    {
      id: "battle-4",
      claimHashA: "4ad2c0bed290fc7e21ade83ea95b0e61d3e4cdc4795f9c35e8d5bea2a6e583e8",
      claimHashB: "4ad2c0bed290fc7e21ade83ea95b0e61d3e4cdc4795f9c35e8d5bea2a6e583e8",
      seed: "mirror",
      expected: {
        winner: "a",
        exchanges: 3,
        chargeLeft: {
          a: 7,
          b: -5
        }
      }
    }
  ],
  simulations: [
    {
      id: "simulation-1",
      seed: "golden",
      rounds: 1000,
      expectedOutputHash: "a23680349610d6f41f69b3b4c045569469f79accf5c8db1a5d2c532867e0a2c7"
    },
    {
      id: "simulation-2",
      seed: "replay-me",
      rounds: 250,
      expectedOutputHash: "883cc0f0ed1d12a1b4d56f8e15a1cabb93432c4a035cd83462b4be13b8fb8009"
    },
    {
      id: "simulation-3",
      seed: "bound",
      rounds: 10000,
      expectedOutputHash: "5c5e6690a9ff6ee4718ddede1562a07ecc11732df8945c3405baf1767eb613cd"
    }
  ]
} as const
