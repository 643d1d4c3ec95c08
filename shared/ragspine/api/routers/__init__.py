"""One ``APIRouter`` per route group (and per Lambda function)."""
