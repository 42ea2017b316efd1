package io.changeflow.benchmarks.support;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name=value} command-line options with defaults. */
public final class Args {

    private final Map<String, String> values = new HashMap<>();

    public Args(String[] args) {
        for (var arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("options look like --name=value: " + arg);
            }
            var eq = arg.indexOf('=');
            values.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
    }

    public String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    public String require(String name) {
        var value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing --" + name + "=...");
        }
        return value;
    }

    public int integer(String name, int fallback) {
        return values.containsKey(name) ? Integer.parseInt(values.get(name)) : fallback;
    }

    /** Seconds. */
    public Duration seconds(String name, int fallback) {
        return Duration.ofSeconds(integer(name, fallback));
    }

    /** A comma-separated list of integers. */
    public List<Integer> integers(String name, String fallback) {
        return Arrays.stream(get(name, fallback).split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(Integer::valueOf).toList();
    }
}
