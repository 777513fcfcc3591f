import os

EXPORT = os.path.join("exported", "encoder.pt")
