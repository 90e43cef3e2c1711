# Hand 2: seat 1 calls a second time after every player has called.
rules standard
seed 77

hand 1
first 0
deal 0: 6-6 6-5 5-5 4-4 4-3 3-3 3-2
deal 1: 6-3 6-1 5-4 5-2 3-1 2-1 0-0
deal 2: 6-4 6-2 5-3 5-1 4-1 2-2 1-1
widow 4-2
0 bids 4
1 passes
2 passes
discard 3-2
trump 4
trick 1: 4-4 5-4 4-1
trick 2: 4-3 0-0 6-4
trick 3: 2-2 4-2 2-1
trick 4: 6-6 6-1 6-2
trick 5: 5-5 5-2 5-1
trick 6: 3-3 3-1 5-3
trick 7: 6-5 6-3 1-1

hand 2
first 1
deal 0: 6-4 5-5 4-3 3-3 3-2 2-1 0-0
deal 1: 6-3 5-1 4-2 4-1 3-1 2-2 1-1
deal 2: 6-6 6-5 6-2 6-1 5-3 5-2 4-4
widow 5-4
1 bids 4
2 bids 5
0 passes
1 bids 6
