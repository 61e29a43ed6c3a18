# Wrong: the low-level design's coordinates (column from num % n) read past the row on
# some squares: an IndexError.
import collections


class Solution:
    def snakesAndLadders(self, board):
        n = len(board)

        def cell(num):
            right_to_left = ((num - 1) // n) % 2 != 0
            row = (n - 1) - ((num - 1) // n)
            col = (num % n) - 1 if num % n else n  # the mistake: n, not n - 1
            if right_to_left:
                col = n - 1 - col
            return row, col

        dist = {1: 0}
        queue = collections.deque([1])
        while queue:
            s = queue.popleft()
            if s == n * n:
                return dist[s]
            for s2 in range(s + 1, min(s + 6, n * n) + 1):
                r, c = cell(s2)
                if board[r][c] != -1:
                    s2 = board[r][c]
                if s2 not in dist:
                    dist[s2] = dist[s] + 1
                    queue.append(s2)
        return -1
