# The score sheet after hand 3 credits the set bidder (seat 0) with the bid of 4
# instead of taking it off.
rules standard
seed 5

hand 1
first 1
deal 0: 6-5 6-4 5-5 5-3 5-1 4-4 3-1
deal 1: 6-6 6-1 5-4 4-2 4-1 3-3 0-0
deal 2: 6-3 5-2 4-3 3-2 2-2 2-1 1-1
widow 6-2
1 bids 4
2 bids 5
0 passes
discard 4-3
trump 2
trick 1: 2-2 3-1 4-2
trick 2: 6-2 5-1 0-0
trick 3: 5-2 4-4 4-1
trick 4: 3-2 5-3 3-3
trick 5: 1-1 5-5 6-1
trick 6: 6-3 6-4 6-6
trick 7: 5-4 2-1 6-5
score 0 1 5

hand 2
first 2
deal 0: 6-5 6-4 6-1 5-1 4-4 4-2 4-1
deal 1: 6-2 5-5 5-4 3-3 3-2 3-1 2-2
deal 2: 6-6 5-3 5-2 4-3 2-1 1-1 0-0
widow 6-3
2 passes
0 bids 4
1 passes
discard 5-1
trump 4
trick 1: 4-4 5-4 4-3
trick 2: 6-4 2-2 0-0
trick 3: 4-2 3-1 1-1
trick 4: 6-5 6-2 6-6
trick 5: 5-3 4-1 5-5
trick 6: 6-3 3-2 2-1
trick 7: 6-1 3-3 5-2
score 4 1 6

hand 3
first 0
deal 0: 6-3 6-2 5-5 5-4 5-2 3-2 0-0
deal 1: 6-5 6-1 5-3 5-1 4-2 3-3 1-1
deal 2: 6-6 6-4 4-4 4-3 3-1 2-2 2-1
widow 4-1
0 bids 4
1 passes
2 passes
discard 4-1
trump 2
trick 1: 6-2 4-2 2-2
trick 2: 6-6 6-3 6-1
trick 3: 4-4 5-4 1-1
trick 4: 6-4 3-2 6-5
trick 5: 5-5 5-1 2-1
trick 6: 4-3 5-2 3-3
trick 7: 0-0 5-3 3-1
score 8 1 10

hand 4
first 1
deal 0: 5-5 5-4 5-2 4-4 3-3 3-2 1-1
deal 1: 6-5 6-4 6-3 6-2 6-1 4-3 2-1
deal 2: 6-6 5-3 5-1 4-2 4-1 3-1 2-2
widow 0-0
1 bids 4
2 passes
0 passes
discard 2-1
trump 6
trick 1: 6-5 6-6 1-1
trick 2: 2-2 3-2 6-1
trick 3: 6-4 3-1 3-3
trick 4: 6-3 4-1 5-2
trick 5: 0-0 4-2 4-4
trick 6: 6-2 5-1 5-4
trick 7: 4-3 5-3 5-5
score 8 5 11

hand 5
first 2
deal 0: 6-6 6-4 6-3 6-2 5-1 4-2 2-2
deal 1: 5-3 4-3 4-1 3-3 3-1 2-1 1-1
deal 2: 6-5 5-5 5-4 5-2 4-4 3-2 0-0
widow 6-1
2 bids 4
0 passes
1 bids 5
discard 4-3
trump 1
trick 1: 1-1 0-0 5-1
trick 2: 6-1 3-2 2-2
trick 3: 4-1 5-2 4-2
trick 4: 3-1 4-4 6-2
trick 5: 3-3 5-4 6-3
trick 6: 5-3 5-5 6-4
trick 7: 6-5 6-6 2-1
score 8 10 12

hand 6
first 0
deal 0: 5-4 5-3 4-4 3-3 2-2 1-1 0-0
deal 1: 6-6 6-5 6-4 6-2 4-1 3-2 3-1
deal 2: 6-3 6-1 5-2 5-1 4-3 4-2 2-1
widow 5-5
0 bids 4
1 bids 5
2 passes
discard 3-1
trump 6
trick 1: 6-6 6-1 0-0
trick 2: 6-5 6-3 1-1
trick 3: 6-4 2-1 2-2
trick 4: 5-5 5-1 5-3
trick 5: 6-2 4-2 3-3
trick 6: 4-1 4-3 4-4
trick 7: 5-4 3-2 5-2
score 10 15 12

hand 7
first 1
deal 0: 6-6 6-2 5-3 4-4 4-3 3-1 2-1
deal 1: 5-4 5-1 4-1 3-3 3-2 1-1 0-0
deal 2: 6-5 6-4 6-3 6-1 5-5 5-2 4-2
widow 2-2
1 bids 4
2 passes
0 passes
discard 3-2
trump 1
trick 1: 1-1 6-1 2-1
trick 2: 5-1 4-2 3-1
trick 3: 3-3 6-3 4-3
trick 4: 2-2 5-2 6-2
trick 5: 0-0 5-5 4-4
trick 6: 5-4 6-5 5-3
trick 7: 6-4 6-6 4-1
score 10 19 13

hand 8
first 2
deal 0: 6-3 5-4 5-3 5-2 3-3 3-2 2-2
deal 1: 6-6 6-5 6-1 5-1 4-4 4-1 2-1
deal 2: 6-4 6-2 5-5 4-3 4-2 3-1 1-1
widow 0-0
2 bids 4
0 bids 5
1 passes
discard 5-2
trump 3
trick 1: 3-3 2-1 3-1
trick 2: 6-3 4-1 4-3
trick 3: 5-3 5-1 1-1
trick 4: 2-2 6-1 4-2
trick 5: 0-0 4-4 6-2
trick 6: 5-4 6-5 5-5
trick 7: 6-4 3-2 6-6
score 15 19 14

hand 9
first 0
deal 0: 6-5 6-1 5-3 5-2 5-1 2-1 1-1
deal 1: 6-3 4-3 3-3 3-2 3-1 2-2 0-0
deal 2: 6-6 6-4 5-5 5-4 4-4 4-2 4-1
widow 6-2
0 bids 4
1 bids 5
2 bids 6
discard 6-2
trump 4
trick 1: 4-4 1-1 4-3
trick 2: 6-4 2-1 0-0
trick 3: 5-4 5-1 2-2
trick 4: 4-2 5-2 3-1
trick 5: 6-6 6-1 6-3
trick 6: 5-5 5-3 3-2
trick 7: 4-1 6-5 3-3
score 15 19 20

hand 10
first 1
deal 0: 6-2 6-1 4-2 4-1 3-2 3-1 0-0
deal 1: 6-4 5-5 5-4 5-2 4-4 3-3 2-1
deal 2: 6-6 6-5 6-3 5-3 5-1 4-3 1-1
widow 2-2
1 bids 4
2 passes
0 passes
discard 2-1
trump 4
trick 1: 4-4 4-3 4-1
trick 2: 6-4 1-1 4-2
trick 3: 5-5 5-1 0-0
trick 4: 3-3 5-3 3-1
trick 5: 2-2 6-3 3-2
trick 6: 5-4 6-5 6-1
trick 7: 5-2 6-6 6-2
score 15 23 20
