"""HTTP edge: FastAPI routers (one per Lambda function) and the app factory."""
