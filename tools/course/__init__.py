"""The machinery behind ./course: chapters, exercises, builds, tests, the book."""
