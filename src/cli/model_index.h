/* `simtbench model --index EXPR`: the model of an access the user writes,
 * from a trace pass of the pattern family's kernel on any device (PoCL
 * without a GPU), in the model command's table and JSON rows. */
#ifndef SB_MODEL_INDEX_H
#define SB_MODEL_INDEX_H

/* Whether argv asks for it (an --index option). */
int sb_model_index_asked(int argc, char **argv);

/* The command; its exit status. */
int sb_model_index(int argc, char **argv);

#endif
