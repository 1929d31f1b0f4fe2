"""What every area of the app uses: htmx helpers, the game read once per request, errors,
security headers and CSRF, body and rate limits, gzip. Nothing here knows a page of its own.
"""
