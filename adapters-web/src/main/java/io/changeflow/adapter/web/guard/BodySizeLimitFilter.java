package io.changeflow.adapter.web.guard;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.JsonResponses;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds every request body ({@code changeflow.web.max-body-size}, default 64 KB; a path given its own bound, such as
 * GitLab's webhook, by that bound). A body that
 * announces more in {@code Content-Length} is answered 413 PAYLOAD_TOO_LARGE at once, unread; a body
 * without a length (chunked) is counted as it is read and the read that crosses the limit fails
 * with {@link BodyTooLargeException}, which the error handler answers 413. Form bodies parsed by
 * the container are bounded by the same limit through the connector's max POST size.
 */
public final class BodySizeLimitFilter extends OncePerRequestFilter {

    private final long defaultMaxBytes;
    private final java.util.Map<String, Long> maxBytesByPath;
    private final JsonResponses responses;

    public BodySizeLimitFilter(long maxBytes, JsonResponses responses) {
        this(maxBytes, java.util.Map.of(), responses);
    }

    /** @param maxBytesByPath the bound of the bodies sent to these exact paths instead of {@code maxBytes} */
    public BodySizeLimitFilter(long maxBytes, java.util.Map<String, Long> maxBytesByPath, JsonResponses responses) {
        this.defaultMaxBytes = maxBytes;
        this.maxBytesByPath = java.util.Map.copyOf(maxBytesByPath);
        this.responses = responses;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var maxBytes = maxBytesByPath.getOrDefault(request.getRequestURI().substring(request.getContextPath().length()),
                defaultMaxBytes);
        if (request.getContentLengthLong() > maxBytes) {
            responses.writeError(request, response, ErrorCode.PAYLOAD_TOO_LARGE);
            return;
        }
        chain.doFilter(new LimitedRequest(request, maxBytes), response);
    }

    /** A request body went over the limit while being read. */
    public static final class BodyTooLargeException extends IOException {

        BodyTooLargeException(long maxBytes) {
            super("request body larger than " + maxBytes + " bytes");
        }
    }

    private static final class LimitedRequest extends HttpServletRequestWrapper {

        private final long maxBytes;
        private ServletInputStream stream;
        private BufferedReader reader;

        LimitedRequest(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (reader != null) {
                throw new IllegalStateException("getReader() was already called");
            }
            if (stream == null) {
                stream = new LimitedInputStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            if (reader == null) {
                var encoding = getCharacterEncoding();
                var charset = encoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(encoding);
                reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
            }
            return reader;
        }
    }

    private static final class LimitedInputStream extends ServletInputStream {

        private final ServletInputStream delegate;
        private final long maxBytes;
        private long count;

        LimitedInputStream(ServletInputStream delegate, long maxBytes) {
            this.delegate = delegate;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            var b = delegate.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            var n = delegate.read(buffer, offset, length);
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        private void counted(int n) throws IOException {
            count += n;
            if (count > maxBytes) {
                throw new BodyTooLargeException(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return delegate.isFinished();
        }

        @Override
        public boolean isReady() {
            return delegate.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            delegate.setReadListener(listener);
        }
    }
}
