# Wrong: the goal checked on the square landed on, before its jump (a ladder onto the
# goal is missed).
import collections


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def cell(s):
            quot, rem = divmod(s - 1, n)
            return n - 1 - quot, rem if quot % 2 == 0 else n - 1 - rem

        seen = {1}
        queue = collections.deque([(1, 0)])
        while queue:
            s, moves = queue.popleft()
            for s2 in range(s + 1, min(s + 6, n * n) + 1):
                if s2 == n * n:  # the mistake: checked before the jump
                    return moves + 1
                r, c = cell(s2)
                if board[r][c] != -1:
                    s2 = board[r][c]
                if s2 not in seen:
                    seen.add(s2)
                    queue.append((s2, moves + 1))
        return -1
