#include "report/json_summary.h"

#include "report/json_build.h"

/* One item; a name read back that jansson would refuse is written as
   \xNN rather than cost the report its summary. */
static json_t *item_json(const sb_summary_item *it, sb_json_builder *b)
{
    char text[4 * sizeof it->text], experiment[4 * sizeof it->experiment];
    json_t *o = json_object();
    sb_json_put_str(o, "topic", sb_summary_topic_name(it->topic), b);
    if (it->topic == SB_SUMMARY_HEADLINE) {
        sb_json_printable(it->experiment, experiment, sizeof experiment);
        sb_json_put_str(o, "experiment", experiment, b);
    }
    sb_json_printable(it->text, text, sizeof text);
    sb_json_put_str(o, "text", text, b);
    return o;
}

json_t *sb_json_summary(const sb_summary *s)
{
    sb_json_builder b = {NULL, NULL};
    json_t *root = json_object(), *lines = json_array();
    for (int i = 0; lines && i < s->n; i++)
        if (json_array_append_new(lines, item_json(&s->item[i], &b)))
            b.refused = "lines";
    sb_json_put(root, "lines", lines, &b);
    if (b.refused) {
        json_decref(root);
        return NULL;
    }
    return root;
}
