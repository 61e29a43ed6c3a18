# Wrong: a depth-first search with a memo, skipping squares on the current path.


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)
        goal = n * n

        def cell(s):
            q, r = divmod(s - 1, n)
            return n - 1 - q, (r if q % 2 == 0 else n - 1 - r)

        memo = {}
        path = set()

        def best(s):
            if s == goal:
                return 0
            if s in memo:
                return memo[s]
            path.add(s)
            least = float("inf")
            for d in range(1, 7):
                t = s + d
                if t > goal:
                    break
                r, c = cell(t)
                if board[r][c] != -1:
                    t = board[r][c]
                if t not in path:
                    least = min(least, 1 + best(t))
            path.discard(s)
            memo[s] = least
            return least

        answer = best(1)
        return -1 if answer == float("inf") else answer
