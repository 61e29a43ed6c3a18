# Wrong: divmod(s, n) where divmod(s - 1, n) is meant: the last square of a row is read
# from the next row (and the goal from off the board, which the guard skips).
from collections import deque


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def cell(s):
            q, r = divmod(s, n)  # bug: s, not s - 1
            row = n - 1 - q
            col = r if q % 2 == 0 else n - 1 - r
            return row, col

        seen = {1}
        q = deque([(1, 0)])
        while q:
            s, d = q.popleft()
            for t in range(s + 1, min(s + 6, n * n) + 1):
                r, c = cell(t)
                if 0 <= r < n and 0 <= c < n and board[r][c] != -1:
                    t = board[r][c]
                if t == n * n:
                    return d + 1
                if t not in seen:
                    seen.add(t)
                    q.append((t, d + 1))
        return -1
