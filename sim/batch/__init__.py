"""Many encounters: the batch runner and its chunks, executors, files, compare, sweep."""
