# Wrong: moves counts every square taken off the queue, not the levels.
from collections import deque


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def pos(s):
            r, c = divmod(s - 1, n)
            return n - 1 - r, (c if r % 2 == 0 else n - 1 - c)

        q = deque([1])
        seen = {1}
        moves = 0
        while q:
            s = q.popleft()
            moves += 1  # the mistake: once per square, not once per level
            for nxt in range(s + 1, min(s + 6, n * n) + 1):
                r, c = pos(nxt)
                if board[r][c] != -1:
                    nxt = board[r][c]
                if nxt == n * n:
                    return moves
                if nxt not in seen:
                    seen.add(nxt)
                    q.append(nxt)
        return -1
