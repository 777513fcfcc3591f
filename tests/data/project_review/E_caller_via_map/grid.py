class Grid:
    def __init__(self, data):
        self.data = data
    def expand(self, rows, cols):
        return Grid([r * cols for r in self.data] * rows)
