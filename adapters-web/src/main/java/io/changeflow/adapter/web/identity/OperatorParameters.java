package io.changeflow.adapter.web.identity;

import io.changeflow.adapter.web.guard.ReservedParameterFilter;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The parameters of an authorized operations write: the client's parameters, copied first, with the
 * reserved {@value #RESERVED} then overwritten by the server with the login identity. The order is
 * the point: overwriting first and copying after would let a client forge the operator by sending
 * a parameter of the same name. Handlers read it from the request attribute {@link #ATTRIBUTE} (or
 * {@code request.getParameter(RESERVED)}, which {@link ReservedParameterFilter} answers from here).
 *
 * @param values every parameter, in arrival order, the reserved one holding the server's value
 */
public record OperatorParameters(Map<String, List<String>> values) {

    public static final String RESERVED = "__authenticatedOperator";
    public static final String ATTRIBUTE = OperatorParameters.class.getName();

    static final int MAX_AUDITED_PARAMETERS = 32;
    static final int MAX_AUDITED_KEY_LENGTH = 64;
    public static final int MAX_AUDITED_VALUE_LENGTH = 200;
    public static final String MASK = "****";

    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(secret|token|passw|pwd|credential|api[-_.]?key|authorization|cookie|session|signature|private).*");
    private static final Pattern SECRET_VALUE = Pattern.compile("(?i)^(whsec_|glpat-|gh[pousr]_|bearer\\s|basic\\s).*");

    public OperatorParameters {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Copies {@code clientParameters}, then overwrites {@value #RESERVED} with {@code operator}: never the reverse. */
    public static OperatorParameters of(Map<String, String[]> clientParameters, String operator) {
        var copy = new LinkedHashMap<String, List<String>>();
        // a malformed form body can give a parameter null values: kept as empty, never a failure (List.of refuses null)
        clientParameters.forEach((name, values) -> copy.put(name, values == null ? List.of()
                : Arrays.stream(values).map(v -> v == null ? "" : v).toList()));
        copy.put(RESERVED, List.of(operator));
        return new OperatorParameters(copy);
    }

    /** The parameters of the current request, when it is an authorized operations write. */
    public static Optional<OperatorParameters> of(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof OperatorParameters p ? Optional.of(p) : Optional.empty();
    }

    /** The operator the server recorded: the login identity. */
    public String operator() {
        return values.get(RESERVED).getFirst();
    }

    /**
     * What the audit log may hold: the operator first, then the client's parameters with secrets,
     * tokens, passwords and the like masked (by name and by well-known value prefixes), keys and
     * values truncated, at most {@value #MAX_AUDITED_PARAMETERS} parameters in all.
     */
    public Map<String, String> forAudit() {
        var audited = new LinkedHashMap<String, String>();
        audited.put(RESERVED, truncate(operator(), MAX_AUDITED_VALUE_LENGTH));
        var skipped = 0;
        for (var entry : values.entrySet()) {
            if (entry.getKey().equals(RESERVED)) {
                continue;
            }
            if (audited.size() >= MAX_AUDITED_PARAMETERS) {
                skipped++;
                continue;
            }
            var key = truncate(entry.getKey(), MAX_AUDITED_KEY_LENGTH);
            var value = String.join(",", entry.getValue());
            var secret = SECRET_NAME.matcher(entry.getKey()).matches()
                    || entry.getValue().stream().anyMatch(v -> SECRET_VALUE.matcher(v).matches());
            audited.put(key, secret ? MASK : truncate(value, MAX_AUDITED_VALUE_LENGTH));
        }
        if (skipped > 0) {
            audited.put("__omitted", skipped + " more parameters");
        }
        return audited;
    }

    private static String truncate(String value, int max) {
        var clean = value.replaceAll("[\\p{Cntrl}\\p{Cc}\\p{Zl}\\p{Zp}\\p{Cf}]", " ");
        return clean.length() <= max ? clean : clean.substring(0, max) + "...";
    }
}
