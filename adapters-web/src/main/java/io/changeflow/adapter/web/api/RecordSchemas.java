package io.changeflow.adapter.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.Schema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Which properties of a response record's schema are always present and which may be null, read from the
 * record: every component is written (required) unless it is {@code @JsonInclude(NON_NULL)}; a component typed
 * {@code @Nullable} may be null; an {@code @JsonUnwrapped} component contributes its own components. The
 * envelope ({@code ApiResponse*} schemas) is a record like the others.
 */
final class RecordSchemas {

    private final Map<String, Class<?>> records;

    RecordSchemas(Map<String, Class<?>> records) {
        this.records = records;
    }

    void applyTo(@Nullable Map<String, Schema> schemas) {
        if (schemas == null) {
            return;
        }
        schemas.forEach((name, schema) -> {
            var type = name.startsWith(ApiResponse.class.getSimpleName()) ? ApiResponse.class : records.get(name);
            if (type == null || schema.getProperties() == null) {
                return;
            }
            var required = new TreeSet<String>();
            describe(type, schema, required);
            schema.setRequired(new ArrayList<>(required));
        });
    }

    private static void describe(Class<?> type, Schema<?> schema, Set<String> required) {
        Map<String, Schema> properties = schema.getProperties();
        for (var component : type.getRecordComponents()) {
            var accessor = component.getAccessor();
            if (accessor.isAnnotationPresent(JsonUnwrapped.class)) {
                describe(component.getType(), schema, required);
                continue;
            }
            var name = component.getName();
            var property = properties.get(name);
            if (property == null) {
                continue;
            }
            var include = accessor.getAnnotation(JsonInclude.class);
            if (include == null || include.value() != JsonInclude.Include.NON_NULL) {
                required.add(name);
            }
            if (accessor.getAnnotatedReturnType().isAnnotationPresent(Nullable.class)) {
                properties.put(name, nullable(property));
            }
        }
    }

    /** The property, or null (OpenAPI 3.1: a type list with "null", or a reference or null). */
    private static Schema<?> nullable(Schema<?> property) {
        if (property.get$ref() != null || property.getAllOf() != null) {
            return new JsonSchema().oneOf(List.of(property, OpenApiDocument.typed("null")));
        }
        var types = new LinkedHashSet<String>();
        if (property.getTypes() != null) {
            types.addAll(property.getTypes());
        } else if (property.getType() != null) {
            types.add(property.getType());
        }
        types.add("null");
        property.setTypes(types);
        return property;
    }
}
