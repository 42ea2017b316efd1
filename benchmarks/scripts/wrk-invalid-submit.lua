-- POST /api/requests with a body that fails field validation (operationId not a UUID, no reason): 400
-- INVALID_REQUEST, decided before the idempotency record, so no database work. It still passes the rate
-- limit (a real tryAcquire on "apply:alice" when APPLY_RATE_LIMIT is a number), API metrics and business
-- activity interceptors.
wrk.method = "POST"
wrk.body = '{"operationId":"not-a-uuid","targetKey":"dashboards-viewer","subjectId":"bench"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Forwarded-User"] = "alice"
