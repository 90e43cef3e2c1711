# Seat 1 lays down their tiles and claims the last 3 tricks.
rules standard
seed 2

hand 1
first 1
deal 0: 6-3 5-4 5-2 4-3 4-2 4-1 3-2
deal 1: 6-5 6-1 5-5 5-1 2-2 1-1 0-0
deal 2: 6-6 6-4 6-2 4-4 3-3 3-1 2-1
widow 5-3
1 bids 4
2 passes
0 passes
discard 6-1
trump 5
trick 1: 5-5 2-1 5-2
trick 2: 6-5 3-1 5-4
trick 3: 5-3 3-3 3-2
trick 4: 2-2 6-2 4-2
trick 5: 1-1 4-4 4-1
trick 6: 0-0 6-4 4-3
trick 7: 5-1 6-6 6-3
score 0 4 0

hand 2
first 2
deal 0: 6-3 5-4 5-2 4-1 3-3 1-1 0-0
deal 1: 6-5 6-2 5-3 4-2 3-2 2-2 2-1
deal 2: 6-6 6-4 6-1 5-1 4-4 4-3 3-1
widow 5-5
2 bids 4
0 passes
1 bids 5
discard 5-3
trump 2
trick 1: 2-2 3-1 5-2
trick 2: 6-2 5-1 0-0
trick 3: 4-2 4-3 1-1
trick 4: 3-2 6-1 4-1
claim 1 all
