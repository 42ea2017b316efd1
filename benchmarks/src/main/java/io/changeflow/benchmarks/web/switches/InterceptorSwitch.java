package io.changeflow.benchmarks.web.switches;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Benchmark-only: takes the web adapter's four interceptors off the unchanged product app, because
 * the product has no switch for them. Put on the app's class path (PropertiesLauncher's
 * {@code loader.path}; META-INF/spring.factories registers this initializer) and start the app with
 * {@code --benchmark.interceptors=off}: the adapter's {@code WebMvcSetup} is then wrapped so that
 * every {@link WebMvcConfigurer} callback reaches it except {@code addInterceptors}. Everything else
 * (the verified-caller argument resolver, the static resources, filters, controllers) stays as it is.
 * Without the property (or with {@code on}) nothing changes, so both runs start the same way.
 */
public final class InterceptorSwitch implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    public static final String PROPERTY = "benchmark.interceptors";
    static final String WEB_MVC_SETUP = "io.changeflow.adapter.web.WebMvcSetup";

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        var mode = context.getEnvironment().getProperty(PROPERTY, "on");
        if (!"off".equals(mode)) {
            return;
        }
        context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean.getClass().getName().equals(WEB_MVC_SETUP)) {
                    System.out.println("[benchmark] interceptors OFF: " + beanName + " registers no interceptors");
                    return withoutInterceptors((WebMvcConfigurer) bean);
                }
                return bean;
            }
        });
    }

    /** {@code configurer} with every callback but {@code addInterceptors}; keeps its {@link Ordered} order. */
    static WebMvcConfigurer withoutInterceptors(WebMvcConfigurer configurer) {
        var order = configurer instanceof Ordered ordered ? ordered.getOrder() : Ordered.LOWEST_PRECEDENCE;
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Ordered.class) {
                return order;
            }
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "WithoutInterceptors(" + configurer + ")";
                    default -> method.invoke(configurer, args);
                };
            }
            if (method.getName().equals("addInterceptors")) {
                return null;
            }
            try {
                return method.invoke(configurer, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (WebMvcConfigurer) Proxy.newProxyInstance(InterceptorSwitch.class.getClassLoader(),
                new Class<?>[] {WebMvcConfigurer.class, Ordered.class}, handler);
    }
}
