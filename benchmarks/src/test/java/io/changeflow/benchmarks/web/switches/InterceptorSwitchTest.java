package io.changeflow.benchmarks.web.switches;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

class InterceptorSwitchTest {

    @Test
    void everyCallbackButAddInterceptorsReachesTheAdapter() throws Exception {
        var called = new ArrayList<String>();
        var recording = (WebMvcConfigurer) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {WebMvcConfigurer.class, Ordered.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getOrder")) {
                        return Ordered.HIGHEST_PRECEDENCE;
                    }
                    called.add(method.getName());
                    return null;
                });
        var wrapped = InterceptorSwitch.withoutInterceptors(recording);

        var callbacks = callbacks();
        for (var method : callbacks) {
            method.invoke(wrapped, new Object[method.getParameterCount()]);
        }

        var expected = new TreeSet<String>();
        callbacks.forEach(m -> expected.add(m.getName()));
        expected.remove("addInterceptors");
        assertThat(new TreeSet<>(called)).isEqualTo(expected);
        assertThat(expected).contains("addArgumentResolvers", "addResourceHandlers");
        assertThat(((Ordered) wrapped).getOrder()).isEqualTo(Ordered.HIGHEST_PRECEDENCE);
    }

    @Test
    void targetsTheWebAdaptersSetupByName() throws ClassNotFoundException {
        var setup = Class.forName(InterceptorSwitch.WEB_MVC_SETUP);
        assertThat(WebMvcConfigurer.class).isAssignableFrom(setup);
        assertThat(Ordered.class).isAssignableFrom(setup);
    }

    private static List<Method> callbacks() {
        return Arrays.stream(WebMvcConfigurer.class.getMethods())
                .filter(m -> !Set.of("equals", "hashCode", "toString").contains(m.getName()))
                .toList();
    }
}
