// The structs samples/struct_arg.c passes to visit(): its own definitions, which scripts
// import (samples/import_records.bt) to read them as the program wrote them.
#ifndef STRUCT_ARG_H
#define STRUCT_ARG_H

struct point {
  int x;
  short y;
};

struct record {
  int id;
  char name[12];
  struct point where;
  struct point path[2];
  struct record *next;
  unsigned int flag : 1;
  unsigned int level : 3;
  int delta : 5;
  long total;
  unsigned char tiny;
  signed char neg;
  union {
    unsigned int word;
    unsigned char bytes[4];
  };
};

#endif
