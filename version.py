"""The release this code is: one number, read by `python app.py --version`, `flask --app app
version`, GET /health, the API document and the start line. CHANGELOG.md says what each
release changed; each release is a git tag `vX.Y.Z`. Imports nothing."""

VERSION = "1.4.1"
