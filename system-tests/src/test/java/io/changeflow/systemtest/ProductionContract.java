package io.changeflow.systemtest;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a production instance's OpenAPI document must be, derived from the checked-in {@code docs/openapi.json}
 * (the sandbox profile's, a superset): without the {@code /sandbox/**} and {@code /sim/**} paths, the demo sign-in
 * cookie's security scheme, and whatever only those paths used (tags, schemas, headers).
 */
final class ProductionContract {

    private static final Pattern REF = Pattern.compile("#/components/(schemas|headers)/([^\"/]+)");
    private static final String DEMO_COOKIE = "demoUserCookie";
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ProductionContract() {}

    static JsonNode of(String sandboxDocument) {
        var document = (ObjectNode) JSON.readTree(sandboxDocument);
        var paths = (ObjectNode) document.get("paths");
        paths.propertyNames().stream().filter(path -> path.startsWith("/sandbox/") || path.startsWith("/sim/"))
                .toList().forEach(paths::remove);
        ((ObjectNode) document.get("components").get("securitySchemes")).remove(DEMO_COOKIE);
        var usedTags = new HashSet<String>();
        for (var path : paths) {
            for (var operation : path) {
                operation.path("tags").forEach(tag -> usedTags.add(tag.asString()));
                if (operation.get("security") instanceof ArrayNode security) {
                    for (int i = security.size() - 1; i >= 0; i--) {
                        if (security.get(i).has(DEMO_COOKIE)) {
                            security.remove(i);
                        }
                    }
                }
            }
        }
        if (document.get("tags") instanceof ArrayNode tags) {
            for (int i = tags.size() - 1; i >= 0; i--) {
                if (!usedTags.contains(tags.get(i).path("name").asString())) {
                    tags.remove(i);
                }
            }
        }
        keepOnlyReachableComponents(document);
        return document;
    }

    /** Drops the schemas and headers no remaining path refers to, directly or through other components. */
    private static void keepOnlyReachableComponents(ObjectNode document) {
        var components = (ObjectNode) document.get("components");
        Set<String> reachable = new HashSet<>();
        var pending = new ArrayDeque<String>();
        collectRefs(document.get("paths"), pending);
        while (!pending.isEmpty()) {
            var ref = pending.pop();
            if (reachable.add(ref)) {
                var parts = ref.split("/", 2);
                collectRefs(components.path(parts[0]).path(parts[1]), pending);
            }
        }
        for (var kind : new String[] {"schemas", "headers"}) {
            if (components.get(kind) instanceof ObjectNode entries) {
                entries.propertyNames().stream().filter(name -> !reachable.contains(kind + "/" + name)).toList()
                        .forEach(entries::remove);
            }
        }
    }

    private static void collectRefs(JsonNode node, ArrayDeque<String> into) {
        var matcher = REF.matcher(node.toString());
        while (matcher.find()) {
            into.push(matcher.group(1) + "/" + matcher.group(2));
        }
    }

    /** Pretty-printed with the keys of every object sorted: a stable text to compare, whose diff shows the difference. */
    static String canonical(JsonNode document) {
        return JSON.writeValueAsString(sorted(document));
    }

    private static Object sorted(JsonNode node) {
        if (node.isObject()) {
            var map = new TreeMap<String, Object>();
            node.properties().forEach(e -> map.put(e.getKey(), sorted(e.getValue())));
            return map;
        }
        if (node.isArray()) {
            var list = new ArrayList<Object>();
            node.forEach(element -> list.add(sorted(element)));
            return list;
        }
        return node;
    }
}
