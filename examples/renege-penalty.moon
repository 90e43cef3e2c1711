# Under renege = penalty: seat 1's renege in hand 3 ends the hand and is scored (RENEGE-2).
rules renege-penalty
seed 1

hand 1
first 2
deal 0: 6-5 6-4 5-2 4-4 3-2 3-1 1-1
deal 1: 6-2 6-1 5-3 5-1 4-2 3-3 0-0
deal 2: 6-6 6-3 5-5 4-3 4-1 2-2 2-1
widow 5-4
2 passes
0 passes
1 passes

hand 2
first 0
deal 0: 6-4 5-3 5-2 5-1 4-1 3-2 1-1
deal 1: 6-6 6-5 6-3 6-2 6-1 2-1 0-0
deal 2: 5-5 5-4 4-4 4-3 4-2 3-3 3-1
widow 2-2
0 bids 4
1 bids 5
2 passes
discard 2-1
trump 6
trick 1: 6-6 3-1 6-4
trick 2: 6-5 3-3 1-1
trick 3: 6-3 4-2 3-2
trick 4: 6-2 4-3 4-1
trick 5: 2-2 4-4 5-2
trick 6: 0-0 5-4 5-1
trick 7: 6-1 5-5 5-3
score 0 5 0

hand 3
first 1
deal 0: 6-6 5-4 5-1 4-4 4-3 3-3 2-1
deal 1: 6-4 6-3 4-2 3-2 3-1 2-2 0-0
deal 2: 6-2 6-1 5-5 5-3 5-2 4-1 1-1
widow 6-5
1 bids 4
2 passes
0 passes
discard 3-1
trump 6
trick 1: 6-5 6-1 6-6
trick 2: 4-4 6-4
score 1 1 0

hand 4
first 2
deal 0: 6-4 5-5 4-2 3-1 2-2 1-1 0-0
deal 1: 6-1 5-4 5-3 5-1 4-4 4-3 4-1
deal 2: 6-6 6-5 6-3 6-2 3-3 3-2 2-1
widow 5-2
2 bids 4
0 passes
1 bids 5
discard 5-1
trump 4
trick 1: 4-4 2-1 4-2
trick 2: 5-4 3-2 6-4
trick 3: 5-5 5-2 6-5
trick 4: 2-2 4-1 6-2
trick 5: 6-1 6-3 0-0
trick 6: 6-6 1-1 4-3
trick 7: 5-3 3-3 3-1
score 3 -4 1

hand 5
first 0
deal 0: 6-6 6-5 6-4 6-3 5-5 5-4 4-1
deal 1: 6-1 5-3 5-2 4-3 4-2 3-3 2-2
deal 2: 6-2 4-4 3-2 3-1 2-1 1-1 0-0
widow 5-1
0 bids 4
1 passes
2 passes
discard 4-1
trump 6
trick 1: 6-6 6-1 6-2
trick 2: 6-5 2-2 0-0
trick 3: 6-4 3-3 1-1
trick 4: 5-5 5-2 2-1
trick 5: 6-3 4-2 3-1
trick 6: 5-4 5-3 3-2
trick 7: 5-1 4-3 4-4
score 7 -4 1

hand 6
first 1
deal 0: 6-4 5-1 4-2 3-3 3-2 3-1 2-2
deal 1: 6-6 6-1 5-5 5-4 5-2 4-4 0-0
deal 2: 6-5 6-2 5-3 4-3 4-1 2-1 1-1
widow 6-3
1 bids 4
2 passes
0 passes
discard 5-2
trump 6
trick 1: 6-6 6-2 6-4
trick 2: 6-3 6-5 2-2
trick 3: 1-1 3-1 6-1
trick 4: 5-5 5-3 5-1
trick 5: 4-4 4-1 4-2
trick 6: 0-0 2-1 3-2
trick 7: 5-4 4-3 3-3
score 7 0 2

hand 7
first 2
deal 0: 6-3 6-2 5-4 5-1 4-3 4-1 0-0
deal 1: 6-6 6-5 4-4 3-2 2-2 2-1 1-1
deal 2: 6-4 6-1 5-5 5-3 4-2 3-3 3-1
widow 5-2
2 bids 4
0 passes
1 passes
discard 4-2
trump 3
trick 1: 3-3 4-3 3-2
trick 2: 5-3 6-3 1-1
trick 3: 0-0 2-1 3-1
trick 4: 5-5 5-1 6-5
trick 5: 6-4 6-2 6-6
trick 6: 4-4 5-2 4-1
trick 7: 2-2 6-1 5-4
score 8 3 -2

hand 8
first 0
deal 0: 6-1 5-3 5-1 4-3 4-2 2-2 0-0
deal 1: 6-5 6-2 5-5 5-4 4-4 4-1 1-1
deal 2: 6-6 6-4 6-3 3-3 3-2 3-1 2-1
widow 5-2
0 passes
1 bids 4
2 bids 5
discard 2-1
trump 3
trick 1: 3-3 4-3 1-1
trick 2: 6-3 5-3 4-1
trick 3: 3-2 0-0 4-4
trick 4: 6-6 6-1 6-2
trick 5: 6-4 2-2 6-5
trick 6: 5-5 5-2 5-1
trick 7: 5-4 3-1 4-2
score 8 5 3

hand 9
first 1
deal 0: 6-6 6-2 6-1 5-5 5-3 3-1 1-1
deal 1: 6-5 6-4 6-3 5-4 5-2 5-1 2-1
deal 2: 4-4 4-3 4-2 4-1 3-3 3-2 2-2
widow 0-0
1 bids 4
2 bids 5
0 passes
discard 3-2
trump 4
trick 1: 4-4 1-1 5-4
trick 2: 4-3 3-1 6-4
trick 3: 6-5 4-1 6-1
trick 4: 3-3 5-3 6-3
trick 5: 2-2 6-2 2-1
trick 6: 0-0 5-5 5-1
trick 7: 4-2 6-6 5-2
score 8 6 8

hand 10
first 2
deal 0: 6-4 6-2 6-1 5-5 5-3 4-2 3-3
deal 1: 6-3 5-1 4-3 4-1 3-1 2-2 2-1
deal 2: 6-6 5-4 5-2 4-4 3-2 1-1 0-0
widow 6-5
2 bids 4
0 passes
1 passes
discard 3-2
trump 5
trick 1: 6-5 5-5 5-1
trick 2: 3-3 3-1 5-2
trick 3: 6-6 6-1 6-3
trick 4: 4-4 4-2 4-1
trick 5: 1-1 5-3 2-1
trick 6: 6-4 2-2 5-4
trick 7: 0-0 6-2 4-3
score 10 6 12

hand 11
first 0
deal 0: 6-6 5-5 5-4 5-2 3-3 2-2 1-1
deal 1: 6-4 6-2 6-1 5-3 5-1 3-2 0-0
deal 2: 6-5 6-3 4-4 4-3 4-1 3-1 2-1
widow 4-2
0 bids 4
1 passes
2 passes
discard 5-4
trump 2
trick 1: 2-2 3-2 2-1
trick 2: 5-2 6-2 3-1
trick 3: 0-0 4-1 4-2
trick 4: 6-6 6-1 6-3
trick 5: 5-5 5-1 6-5
trick 6: 3-3 5-3 4-3
trick 7: 1-1 6-4 4-4
score 14 7 12

hand 12
first 1
deal 0: 6-3 6-2 5-5 3-3 2-2 2-1 1-1
deal 1: 6-6 6-4 6-1 5-3 5-2 5-1 4-2
deal 2: 6-5 5-4 4-4 4-3 3-2 3-1 0-0
widow 4-1
1 passes
2 bids 4
0 bids 5
discard 4-1
trump 2
trick 1: 2-2 4-2 3-2
trick 2: 6-2 5-2 0-0
trick 3: 5-5 5-1 5-4
trick 4: 3-3 5-3 3-1
trick 5: 1-1 6-1 4-3
trick 6: 6-3 6-4 6-5
trick 7: 4-4 2-1 6-6
score 19 7 13

hand 13
first 2
deal 0: 6-6 6-4 6-2 5-2 5-1 3-1 2-2
deal 1: 6-5 6-3 6-1 5-5 5-4 4-3 3-2
deal 2: 5-3 4-4 4-2 4-1 3-3 2-1 1-1
widow 0-0
2 bids 4
0 passes
1 passes
discard 2-1
trump 4
trick 1: 4-4 6-4 4-3
trick 2: 4-2 2-2 5-4
trick 3: 5-5 5-3 5-1
trick 4: 6-5 4-1 6-2
trick 5: 3-3 3-1 3-2
trick 6: 1-1 5-2 6-1
trick 7: 0-0 6-6 6-3
score 19 9 17

hand 14
first 0
deal 0: 6-6 5-4 5-1 4-3 4-2 2-2 1-1
deal 1: 6-4 6-3 5-5 5-3 4-1 2-1 0-0
deal 2: 6-5 6-2 6-1 4-4 3-3 3-2 3-1
widow 5-2
0 bids 4
1 passes
2 passes
discard 4-3
trump 2
trick 1: 2-2 2-1 3-2
trick 2: 5-2 0-0 6-2
trick 3: 4-4 5-4 4-1
trick 4: 3-3 4-2 5-3
trick 5: 6-6 6-3 6-1
trick 6: 1-1 5-5 3-1
trick 7: 5-1 6-4 6-5
score 23 9 20
